import { beforeAll, describe, expect, it } from 'vitest';
import {
  alarmsRaised,
  allPayments,
  type BillingTestApp,
  CONFIRMATION_DELAY_MS,
  liveBalance,
  paymentByReference,
  startBillingApp,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../../test/fake-paystack.js';
import { usePaystackSuite } from '../../../../../test/paystack-suite.js';

// The fake Paystack unavailable, silent or unreachable: what is kept pending, what fails, what raises an alarm.

const suite = usePaystackSuite();
const { pay, alarmLines } = suite;
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});

describe('Paystack unavailable or silent', () => {
  it('keeps a checkout whose initialize was never answered pending under our reference, and fails it once Paystack says it never saw it', async () => {
    paystack.behaviour('hang');
    const response = await pay({ method: 'card', amount: 1000 });
    expect(response.statusCode).toBe(503);
    // The request was given PROVIDER_TIMEOUT_MS, run out here as soon as Paystack stayed silent.
    expect(t.timeouts.started.at(-1)).toEqual({
      provider: 'paystack',
      url: `${paystack.url}/transaction/initialize`,
      ms: t.config.payments.providerTimeoutMs,
    });
    const [payment] = await allPayments(t.db);
    if (payment === undefined) throw new Error('No payment was recorded');
    expect(response.json()).toMatchObject({
      success: false,
      code: 'provider_unavailable',
      requestId: expect.any(String),
    });
    expect(response.json().error).toContain(`GET /v1/billing/payments/${payment.reference}`);
    // Paystack may have made the transaction: the payment can still be settled, under our own reference.
    expect(payment).toMatchObject({ status: 'pending', providerReference: payment.reference, checkoutUrl: null });

    paystack.behaviour('normal');
    expect(await t.reconcile()).toEqual({ checked: 0, settled: 0 });
    t.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect(paystack.server.requests.at(-1)?.url).toBe(`/transaction/verify/${payment.reference}`);
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({
      status: 'failed',
      failureReason: 'The payment provider has no record of this payment: nothing was charged',
    });
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->failed']);
  });

  it('answers 503 for a 5xx too, and expires a checkout Paystack made whose link never reached us', async () => {
    paystack.behaviour('server_error_after_processing');
    const response = await pay({ method: 'card', amount: 1000 });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('provider_unavailable');
    const [payment] = await allPayments(t.db);
    expect(payment).toMatchObject({ status: 'pending', checkoutUrl: null });
    expect(paystack.transactions.get(payment?.reference ?? '')?.status).toBe('abandoned');

    paystack.behaviour('normal');
    t.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect(await paymentByReference(t.db, payment?.reference ?? '')).toMatchObject({
      status: 'expired',
      failureReason: 'The checkout link was never received from the payment provider',
    });
  });

  it('raises an alarm when Paystack reports a success for a payment recorded as failed', async () => {
    paystack.behaviour('hang');
    expect((await pay({ method: 'card', amount: 1200 })).statusCode).toBe(503);
    const [payment] = await allPayments(t.db);
    if (payment === undefined) throw new Error('No payment was recorded');
    paystack.behaviour('normal');
    t.clock.advance(CONFIRMATION_DELAY_MS);
    await t.reconcile();
    expect((await paymentByReference(t.db, payment.reference)).status).toBe('failed');

    // Paystack made the transaction after all, later than its "not found", and reports it paid.
    paystack.transactions.set(payment.reference, {
      id: 77_001,
      reference: payment.reference,
      amount: 120_000,
      currency: 'KES',
      email: 'payer@example.com',
      status: 'success',
      callbackUrl: undefined,
      accessCode: 'late',
      gatewayResponse: 'Successful',
      authorization: null,
    });
    const before = await liveBalance(t.db, t.organizationId);
    const alarmsBefore = await alarmsRaised(t.app, 'success_after_final');
    expect((await paystack.deliverWebhook(paystack.chargeSuccessEvent(payment.reference))).status).toBe(200);
    expect((await paymentByReference(t.db, payment.reference)).status).toBe('failed');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    expect(await alarmsRaised(t.app, 'success_after_final')).toBe(alarmsBefore + 1);
    expect(alarmLines('success_after_final')).toEqual([
      expect.objectContaining({
        reference: payment.reference,
        status: 'failed',
        msg: expect.stringContaining('nothing was credited'),
      }),
    ]);
  });
});

describe('Paystack unreachable', () => {
  it('fails the payment at once: the connection was refused, so nothing was sent', async () => {
    const gone = await startFakePaystack();
    await gone.close();
    const unreachable = await startBillingApp({
      env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: gone.url },
    });
    try {
      const response = await unreachable.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await unreachable.headers({ 'idempotency-key': 'refused-1' }),
        payload: { method: 'card', amount: 1000 },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().code).toBe('provider_unavailable');
      expect(await allPayments(unreachable.db)).toEqual([
        expect.objectContaining({
          status: 'failed',
          failureReason: 'The payment provider could not take the payment',
          providerReference: null,
        }),
      ]);
      // Nothing can be charged, so the same key may try again at once (and fails the same way here).
      const retried = await unreachable.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await unreachable.headers({ 'idempotency-key': 'refused-1' }),
        payload: { method: 'card', amount: 1000 },
      });
      expect(retried.statusCode).toBe(503);
      expect(await allPayments(unreachable.db)).toHaveLength(2);
    } finally {
      await unreachable.close();
    }
  });
});
