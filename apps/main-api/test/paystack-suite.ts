import { paymentEvents, paymentMethods } from '@platform/db/schema';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, expect } from 'vitest';
import { useBillingAppWithProviders } from './billing-app-with-providers.js';
import { type BillingTestApp, capturingLogger, deletePayments } from './billing-fixtures.js';
import type { FakePaystack } from './fake-paystack.js';

/** The card payment suites: a listening billing app charging cards through a fake Paystack, and its warnings. */
export interface PaystackSuite {
  readonly t: BillingTestApp;
  readonly paystack: FakePaystack;
  /** The app's log lines at warn and above, emptied before each test. */
  readonly logs: ReturnType<typeof capturingLogger>;
  /** POST /v1/billing/pay as the payer. */
  pay(body: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A card checkout of `amount` started (200), with its reference and checkout URL. */
  startCheckout(amount: number): Promise<{ reference: string; checkoutUrl: string }>;
  /** Error lines that raised a payment alarm of `kind`. */
  alarmLines(kind: string): Array<Record<string, unknown>>;
}

/**
 * Registers the suite's hooks: before it, a fake Paystack and an app that listens for its signed webhooks (a request
 * Paystack leaves unanswered times out at once, not after PROVIDER_TIMEOUT_MS); before each test, Paystack behaving
 * normally, no log lines, payments, events or saved methods. Read `t` and `paystack` inside tests or hooks.
 */
export function usePaystackSuite(): PaystackSuite {
  const logs = capturingLogger('warn');
  const billing = useBillingAppWithProviders({ daraja: false, paystack: true, logger: logs.logger });
  beforeAll(() => {
    billing.t.timeouts.expireOnHang(billing.paystack.server);
  });
  beforeEach(async () => {
    billing.paystack.behaviour('normal');
    logs.lines.length = 0;
    await deletePayments(billing.t.db);
    await billing.t.db.delete(paymentEvents);
    await billing.t.db.delete(paymentMethods);
  });

  const pay = async (body: object, headers: Record<string, string> = {}) => {
    const { t } = billing;
    return t.app.inject({ method: 'POST', url: '/v1/billing/pay', headers: await t.headers(headers), payload: body });
  };
  return {
    get t() {
      return billing.t;
    },
    get paystack() {
      return billing.paystack;
    },
    logs,
    pay,
    async startCheckout(amount) {
      const response = await pay({ method: 'card', amount });
      expect(response.statusCode).toBe(200);
      return response.json() as { reference: string; checkoutUrl: string };
    },
    alarmLines: (kind) => logs.lines.filter((line) => line['level'] === 50 && line['alarm'] === kind),
  };
}
