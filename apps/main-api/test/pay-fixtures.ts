import { mailSubscriptions, paymentEvents, paymentMethods } from '@platform/db/schema';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type BillingTestApp, deletePayments, startBillingApp } from './billing-fixtures.js';

/** The pay route's suites: a billing app on the sandbox, and the requests they send it. */
export interface PayTestApp {
  readonly t: BillingTestApp;
  /** POST /v1/billing/pay as the payer, for the organization. */
  pay(body: unknown, extraHeaders?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** GET /v1/billing/payments/:reference, as the payer unless other headers are given. */
  getPayment(reference: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/**
 * Registers the suite's hooks: before it, a billing app on the sandbox with a card limit of 500,000 and an M-Pesa limit
 * of 70,000; before each test, no payments, events, saved methods or subscriptions; after it, the app closed. Read `t`
 * inside tests or hooks.
 */
export function usePayApp(): PayTestApp {
  let started: BillingTestApp | undefined;
  const app = (): BillingTestApp => {
    if (started === undefined) throw new Error('The billing app is started before the suite runs');
    return started;
  };

  beforeAll(async () => {
    started = await startBillingApp({ env: { MAX_AMOUNT_CARD: '500000', MAX_AMOUNT_MOBILE_MONEY: '70000' } });
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(async () => {
    const { db } = app();
    await deletePayments(db);
    await db.delete(paymentEvents);
    await db.delete(paymentMethods);
    await db.delete(mailSubscriptions);
  });

  return {
    get t() {
      return app();
    },
    async pay(body, extraHeaders = {}) {
      const t = app();
      return t.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await t.headers(extraHeaders),
        payload: body as object,
      });
    },
    async getPayment(reference, headers) {
      const t = app();
      return t.app.inject({
        method: 'GET',
        url: `/v1/billing/payments/${reference}`,
        headers: headers ?? (await t.headers()),
      });
    },
  };
}
