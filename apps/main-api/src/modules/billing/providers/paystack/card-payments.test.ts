import { createHmac } from 'node:crypto';
import { paymentEvents, paymentMethods, payments } from '@platform/db';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
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

beforeAll(async () => {
  paystack = await startFakePaystack();
  t = await startBillingApp({
    listen: true,
    env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url, PROVIDER_TIMEOUT_MS: '1000' },
  });
  paystack.webhookUrl = `${t.url}/v1/billing/webhooks/paystack`;
});
afterAll(async () => {
  await t?.close();
  await paystack?.close();
});
beforeEach(async () => {
  paystack.behaviour('normal');
  await t.db.delete(payments);
  await t.db.delete(paymentEvents);
  await t.db.delete(paymentMethods);
});

async function pay(body: object) {
  return t.app.inject({ method: 'POST', url: '/v1/billing/pay', headers: await t.headers(), payload: body });
}

async function startCheckout(amount: number) {
  const response = await pay({ method: 'card', amount });
  expect(response.statusCode).toBe(200);
  return response.json() as { reference: string; checkoutUrl: string };
}

describe('card checkout through Paystack', () => {
  it('returns Paystack\'s authorization_url and settles on the signed charge.success webhook', async () => {
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
    expect(card).toMatchObject({ type: 'card', provider: 'paystack', last4: '4081', customerEmail: 'payer@example.com' });
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
    expect((await paystack.deliverWebhook(event)).status).toBe(200);
    const orphans = await t.db.select().from(paymentEvents).where(isNull(paymentEvents.paymentId));
    expect(orphans).toHaveLength(1);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
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
    expect(response.json()).toEqual({ success: true, message: 'Payment of KES 6,000 successful.', reference: expect.any(String) });
    const charge = paystack.server.requests.at(-1);
    expect(charge?.url).toBe('/transaction/charge_authorization');
    expect(charge?.body).toMatchObject({ authorization_code: card.authorizationCode, amount: 600_000, email: 'payer@example.com' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 6000);
    expect(await t.db.select().from(paymentMethods)).toHaveLength(1);
  });

  it('answers 402 payment_failed for a declined card and records the failure', async () => {
    const card = await savedCard();
    const before = await liveBalance(t.db, t.organizationId);
    const response = await pay({ method: 'saved_method', amount: 6000, paymentMethodId: card.id });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ success: false, code: 'payment_failed', error: expect.stringContaining('Declined') });
    const failed = (await allPayments(t.db)).at(-1);
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Declined', method: 'saved_method' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
  });
});

describe('Paystack unavailable', () => {
  it('answers 503 when Paystack does not answer in time, leaving no payment in flight', async () => {
    paystack.behaviour('hang');
    const response = await pay({ method: 'card', amount: 1000 });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ success: false, code: 'provider_unavailable', requestId: expect.any(String) });
    const [payment] = await allPayments(t.db);
    expect(payment).toMatchObject({ status: 'expired', failureReason: 'The payment provider did not answer in time' });
    expect((await allPayments(t.db)).filter((row) => row.status === 'pending')).toEqual([]);
  });

  it('answers 503 when Paystack fails with a 5xx and records the payment as failed', async () => {
    paystack.behaviour('server_error');
    const response = await pay({ method: 'card', amount: 1000 });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('provider_unavailable');
    const [payment] = await allPayments(t.db);
    expect(payment).toMatchObject({ status: 'failed', failureReason: 'The payment provider could not take the payment', providerReference: null });
  });
});
