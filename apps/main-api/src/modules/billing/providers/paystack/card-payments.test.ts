import { createHmac } from 'node:crypto';
import { paymentEvents, paymentMethods } from '@platform/db/schema';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  alarmsRaised,
  allPayments,
  type BillingTestApp,
  CONFIRMATION_DELAY_MS,
  capturingLogger,
  deletePayments,
  liveBalance,
  paymentByReference,
  startBillingApp,
  topUpsOf,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../../test/fake-paystack.js';
import { newPaymentReference } from '../../payments/reference.js';

// Card payments against a fake Paystack that speaks Paystack's formats and posts signed webhooks to the
// service over HTTP.

const HOUR = 60 * 60 * 1000;
let t: BillingTestApp;
let paystack: FakePaystack;
const logs = capturingLogger('warn');

beforeAll(async () => {
  paystack = await startFakePaystack();
  t = await startBillingApp({
    listen: true,
    logger: logs.logger,
    env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url },
  });
  paystack.webhookUrl = `${t.url}/v1/billing/webhooks/paystack`;
  // A request Paystack leaves unanswered times out at once, not after PROVIDER_TIMEOUT_MS.
  t.timeouts.expireOnHang(paystack.server);
});
afterAll(async () => {
  await t?.close();
  await paystack?.close();
});
beforeEach(async () => {
  paystack.behaviour('normal');
  logs.lines.length = 0;
  await deletePayments(t.db);
  await t.db.delete(paymentEvents);
  await t.db.delete(paymentMethods);
});

async function pay(body: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/billing/pay', headers: await t.headers(headers), payload: body });
}

/** Error lines that raised a payment alarm of `kind`. */
const alarmLines = (kind: string) => logs.lines.filter((line) => line['level'] === 50 && line['alarm'] === kind);

async function startCheckout(amount: number) {
  const response = await pay({ method: 'card', amount });
  expect(response.statusCode).toBe(200);
  return response.json() as { reference: string; checkoutUrl: string };
}

describe('card checkout through Paystack', () => {
  it("returns Paystack's authorization_url and settles on the signed charge.success webhook", async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutUrl } = await startCheckout(2500);
    expect(checkoutUrl).toBe(`https://checkout.paystack.com/${paystack.transactions.get(reference)?.accessCode}`);
    expect(paystack.transactions.get(reference)).toMatchObject({
      amount: 250_000,
      currency: 'KES',
      email: 'payer@example.com',
      callbackUrl: `${t.url}/v1/billing/checkout/complete`,
    });

    paystack.completeCheckout(reference);
    const delivered = await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    expect(delivered).toEqual({ status: 200, body: '{"success":true}' });

    const payment = await paymentByReference(t.db, reference);
    expect(payment.status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 2500);
    const [card] = await t.db.select().from(paymentMethods);
    expect(card).toMatchObject({
      type: 'card',
      provider: 'paystack',
      last4: '4081',
      customerEmail: 'payer@example.com',
    });
    expect(card?.authorizationCode).toMatch(/^AUTH_/);
    expect(payment.paymentMethodId).toBe(card?.id);
    const list = await t.app.inject({ method: 'GET', url: '/v1/billing/payment-methods', headers: await t.headers() });
    expect(list.body).not.toContain(card?.authorizationCode ?? 'AUTH_');
  });

  it('credits once however often the webhook is delivered', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference } = await startCheckout(1000);
    paystack.completeCheckout(reference);
    const event = paystack.chargeSuccessEvent(reference);
    for (let delivery = 0; delivery < 4; delivery += 1) {
      expect((await paystack.deliverWebhook(event)).status).toBe(200);
    }
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1000);
    expect(await topUpsOf(t.db, reference)).toBe(1);
    const payment = await paymentByReference(t.db, reference);
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
    const providerEvents = await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'provider_event'));
    expect(providerEvents).toHaveLength(1);
  });

  it('settles an authentic event carrying text PostgreSQL cannot store, keeping it with U+FFFD in its place', async () => {
    const { reference } = await startCheckout(1000);
    paystack.completeCheckout(reference);
    const event = JSON.parse(paystack.chargeSuccessEvent(reference)) as {
      data: Record<string, unknown> & { authorization: Record<string, unknown> };
    };
    event.data['gateway_response'] = 'Approved\u0000';
    event.data.authorization['bank'] = '\ud800Bank';
    // JSON.stringify writes both as \u escapes, as Paystack's encoder would.
    const delivered = await paystack.deliverWebhook(JSON.stringify(event));
    expect(delivered).toEqual({ status: 200, body: '{"success":true}' });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    const [recorded] = await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'provider_event'));
    expect(JSON.stringify(recorded?.payload)).toContain('Approved\ufffd');
    const [card] = await t.db.select().from(paymentMethods);
    expect(card?.bank).toBe('\ufffdBank');
  });

  it('ignores forged webhooks, answering them exactly like genuine ones', async () => {
    const { reference } = await startCheckout(1000);
    paystack.completeCheckout(reference);
    const event = paystack.chargeSuccessEvent(reference);
    const otherSecret = createHmac('sha512', 'sk_test_someone_else').update(event).digest('hex');
    const tampered = event.replace('"amount":100000', '"amount":900000');
    const answers = [
      await paystack.deliverWebhook(event, otherSecret),
      await paystack.deliverWebhook(event, 'not-a-signature'),
      await paystack.deliverWebhook(event, ''),
      await paystack.deliverWebhook(tampered, createHmac('sha512', FAKE_PAYSTACK_SECRET).update(event).digest('hex')),
    ];
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: '{"success":true}' });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'provider_event'))).toEqual([]);
  });

  it('does not save a card whose authorization is not reusable', async () => {
    const { reference } = await startCheckout(1000);
    paystack.completeCheckout(reference, { reusable: false });
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await t.db.select().from(paymentMethods)).toEqual([]);
  });

  it('refuses a success whose amount differs from the payment and credits nothing', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference } = await startCheckout(1000);
    paystack.completeCheckout(reference, { paidSubunits: 100 });
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    const payment = await paymentByReference(t.db, reference);
    expect(payment.status).toBe('failed');
    expect(payment.failureReason).toContain('1 KES paid for a payment of 1000 KES');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
  });

  it('keeps an authentic event about an unknown payment for support and changes nothing', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const event = JSON.stringify({
      event: 'charge.success',
      data: { id: 77, reference: newPaymentReference(), status: 'success', amount: 5000, currency: 'KES' },
    });
    const alarmsBefore = await alarmsRaised(t.app, 'unmatched_success');
    expect((await paystack.deliverWebhook(event)).status).toBe(200);
    const orphans = await t.db.select().from(paymentEvents).where(isNull(paymentEvents.paymentId));
    expect(orphans).toHaveLength(1);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    // Money taken that nothing credits is never silent: an error line and the alarm counter.
    expect(await alarmsRaised(t.app, 'unmatched_success')).toBe(alarmsBefore + 1);
    expect(alarmLines('unmatched_success')).toEqual([
      expect.objectContaining({ eventKey: orphans[0]?.providerEventKey }),
    ]);
    // A redelivery is a duplicate: recorded once, counted once.
    await paystack.deliverWebhook(event);
    expect(await alarmsRaised(t.app, 'unmatched_success')).toBe(alarmsBefore + 1);
  });
});

describe('late and missing Paystack webhooks', () => {
  it('expires an abandoned checkout, then counts a late success once', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference } = await startCheckout(1500);
    t.clock.advance(2 * HOUR);
    expect((await t.reconcile()).settled).toBe(1);
    const expired = await paymentByReference(t.db, reference);
    expect(expired).toMatchObject({ status: 'expired', failureReason: 'The checkout was not completed in time' });

    paystack.completeCheckout(reference);
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    const paid = await paymentByReference(t.db, reference);
    expect(paid).toMatchObject({ status: 'succeeded', failureReason: null });
    expect(await transitionsOf(t.db, paid.id)).toEqual(['pending->expired', 'expired->succeeded']);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1500);
  });

  it('settles a paid checkout whose webhook never came through the reconciliation lookup', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference } = await startCheckout(800);
    paystack.completeCheckout(reference);
    t.clock.advance(5 * 60 * 1000);
    expect(await t.reconcile()).toEqual({ checked: 0, settled: 0 });
    t.clock.advance(2 * HOUR);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 800);
    // The webhook arriving afterwards changes nothing.
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    expect(await topUpsOf(t.db, reference)).toBe(1);
  });
});

describe('saved cards through Paystack charge_authorization', () => {
  async function savedCard() {
    const { reference } = await startCheckout(100);
    paystack.completeCheckout(reference);
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
    const [card] = await t.db.select().from(paymentMethods);
    if (card === undefined) throw new Error('The card was not saved');
    return card;
  }

  it('charges the stored authorization and settles at once', async () => {
    const card = await savedCard();
    paystack.approvedAuthorizations.add(card.authorizationCode ?? '');
    const before = await liveBalance(t.db, t.organizationId);
    const response = await pay({ method: 'saved_method', amount: 6000, paymentMethodId: card.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Payment of KES 6,000 successful.',
      reference: expect.any(String),
    });
    const charge = paystack.server.requests.at(-1);
    expect(charge?.url).toBe('/transaction/charge_authorization');
    expect(charge?.body).toMatchObject({
      authorization_code: card.authorizationCode,
      amount: 600_000,
      email: 'payer@example.com',
    });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 6000);
    expect(await t.db.select().from(paymentMethods)).toHaveLength(1);
  });

  it('answers 402 payment_failed for a declined card and records the failure', async () => {
    const card = await savedCard();
    const before = await liveBalance(t.db, t.organizationId);
    const response = await pay({ method: 'saved_method', amount: 6000, paymentMethodId: card.id });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'payment_failed',
      error: expect.stringContaining('Declined'),
    });
    const failed = (await allPayments(t.db)).at(-1);
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Declined', method: 'saved_method' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
  });

  /** The saved-card payment made last. */
  async function lastCharge() {
    const payment = (await allPayments(t.db)).filter((row) => row.method === 'saved_method').at(-1);
    if (payment === undefined) throw new Error('No saved-card payment was recorded');
    return payment;
  }

  it('keeps a charge whose answer never came pending, refuses retries with its key, and answers them with the success once verified', async () => {
    const card = await savedCard();
    paystack.approvedAuthorizations.add(card.authorizationCode ?? '');
    const before = await liveBalance(t.db, t.organizationId);
    const body = { method: 'saved_method', amount: 6000, paymentMethodId: card.id };
    const key = { 'idempotency-key': 'lost-answer-1' };
    const chargesBefore = paystack.charges().length;
    const charges = () => paystack.charges().length - chargesBefore;

    paystack.behaviour('hang_after_processing');
    const first = await pay(body, key);
    expect(first.statusCode).toBe(503);
    const payment = await lastCharge();
    expect(first.json()).toMatchObject({
      code: 'provider_unavailable',
      error: expect.stringContaining(payment.reference),
    });
    expect(payment).toMatchObject({ status: 'pending', providerReference: payment.reference });
    expect(charges()).toBe(1);
    expect(paystack.transactions.get(payment.reference)?.status).toBe('success'); // Paystack did charge the card

    // The 503 was not stored, but the key still cannot start a second charge while the first is unknown.
    paystack.behaviour('normal');
    const retry = await pay(body, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({
      code: 'idempotency_key_in_use',
      error: expect.stringContaining(payment.reference),
    });
    expect(Number(retry.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await pay({ ...body, amount: 6001 }, key)).json().code).toBe('idempotency_key_reused');
    expect(charges()).toBe(1);

    t.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, payment.reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 6000);

    const replayed = await pay(body, key);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual({
      success: true,
      message: 'Payment of KES 6,000 successful.',
      reference: payment.reference,
    });
    const again = await pay(body, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(replayed.json());
    expect(charges()).toBe(1);
    expect(await topUpsOf(t.db, payment.reference)).toBe(1);
  });

  it('settles a charge whose connection was reset by the charge.success webhook', async () => {
    const card = await savedCard();
    paystack.approvedAuthorizations.add(card.authorizationCode ?? '');
    const before = await liveBalance(t.db, t.organizationId);
    paystack.behaviour('reset_after_processing');
    expect((await pay({ method: 'saved_method', amount: 700, paymentMethodId: card.id })).statusCode).toBe(503);
    const payment = await lastCharge();
    expect(payment.status).toBe('pending');

    paystack.behaviour('normal');
    await paystack.deliverWebhook(paystack.chargeSuccessEvent(payment.reference));
    expect((await paymentByReference(t.db, payment.reference)).status).toBe('succeeded');
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 700);
  });

  it('lets the same key charge again once the unanswered charge is known to have failed', async () => {
    const card = await savedCard();
    const before = await liveBalance(t.db, t.organizationId);
    const body = { method: 'saved_method', amount: 900, paymentMethodId: card.id };
    const key = { 'x-idempotency-key': 'declined-then-retried' };
    const chargesBefore = paystack.charges().length;
    // Declined by the bank, but the answer is lost: a 5xx.
    paystack.behaviour('server_error_after_processing');
    expect((await pay(body, key)).statusCode).toBe(503);
    const lost = await lastCharge();
    paystack.behaviour('normal');
    t.clock.advance(CONFIRMATION_DELAY_MS);
    await t.reconcile();
    expect(await paymentByReference(t.db, lost.reference)).toMatchObject({
      status: 'failed',
      failureReason: 'Declined',
    });

    paystack.approvedAuthorizations.add(card.authorizationCode ?? '');
    const retried = await pay(body, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json().reference).not.toBe(lost.reference);
    expect(paystack.charges().length - chargesBefore).toBe(2);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 900);
  });
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
