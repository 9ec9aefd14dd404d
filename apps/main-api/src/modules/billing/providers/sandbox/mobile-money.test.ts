import { paymentEvents } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { quietPeriod } from '#test-timing';
import {
  type BillingTestApp,
  deletePayments,
  liveBalance,
  paymentByReference,
  startBillingApp,
  untilSettled,
} from '../../../../../test/billing-fixtures.js';
import { createSandboxMobileMoneyProvider } from './mobile-money.js';
import { SANDBOX_PHONE_SCENARIOS } from './phone-scenarios.js';

const MINUTE = 60_000;
let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp({ env: { SANDBOX_STK_DELAY_MS: '0' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await deletePayments(t.db);
});

async function prompt(phone: string, amount = 250) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(),
    payload: { method: 'mobile_money', amount, phone },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { reference: string }).reference;
}

describe('sandbox M-Pesa prompts resolved by magic numbers', () => {
  it('documents exactly these numbers', () => {
    expect(SANDBOX_PHONE_SCENARIOS).toEqual({
      '254708374149': 'pays',
      '254700000001': 'cancels',
      '254700000002': 'times_out',
      '254700000003': 'insufficient_funds',
      '254700000004': 'callback_lost',
      '254700000005': 'never_answers',
    });
  });

  it.each([
    ['0708374149', 'succeeded', null],
    ['0712345678', 'succeeded', null],
    ['0700000001', 'cancelled', 'Request cancelled by user'],
    ['0700000002', 'expired', 'DS timeout user cannot be reached'],
    ['0700000003', 'failed', 'The balance is insufficient for the transaction.'],
  ] as const)('%s ends %s through a Daraja-shaped callback', async (phone, status, reason) => {
    const before = await liveBalance(t.db, t.organizationId);
    const reference = await prompt(phone);
    const payment = await untilSettled(t.db, reference);
    expect(payment).toMatchObject({ status, failureReason: reason });
    const [event] = await t.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.paymentId, payment.id), eq(paymentEvents.type, 'provider_event')));
    expect(event).toMatchObject({
      source: 'sandbox_callback',
      providerEventKey: expect.stringMatching(/^daraja:callback:ws_CO_SANDBOX_/),
    });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + (status === 'succeeded' ? 250 : 0));
  });

  it('0700000004 pays but loses its callback: the reconciliation query finds the success', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const reference = await prompt('0700000004');
    // The other numbers' callbacks come at once (SANDBOX_STK_DELAY_MS is 0); this one's never does.
    await quietPeriod();
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 250);
  });

  it('0700000005 never answers: pending while "being processed", then expired', async () => {
    const reference = await prompt('0700000005');
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 0 });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    t.clock.advance(15 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('expired');
  });
});

describe('closing the sandbox M-Pesa provider', () => {
  it('waits for a callback being delivered, so the app never closes the database under a settlement half done', async () => {
    const order: string[] = [];
    let delivering = (): void => undefined;
    const deliveryStarted = new Promise<void>((resolve) => {
      delivering = resolve;
    });
    let finishSettlement = (): void => undefined;
    const settlement = new Promise<void>((resolve) => {
      finishSettlement = resolve;
    });
    const provider = createSandboxMobileMoneyProvider({
      delayMs: 0,
      now: () => new Date(),
      log: pino({ level: 'silent' }),
      async deliverCallback() {
        delivering();
        await settlement;
        order.push('settled');
      },
    });
    await provider.requestPayment({
      reference: 'PAY-closing',
      accountReference: 'PAYCLOSING',
      amount: 250,
      phone: '254708374149',
      description: 'Wallet top-up',
    });
    await deliveryStarted;

    const closing = provider.close().then(() => order.push('closed'));
    // A close that did not wait would have resolved by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    finishSettlement();
    await closing;
    expect(order).toEqual(['settled', 'closed']);
  });
});
