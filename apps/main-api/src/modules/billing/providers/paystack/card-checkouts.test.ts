import { createHmac } from 'node:crypto';
import { paymentEvents, paymentMethods } from '@platform/db/schema';
import { eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  alarmsRaised,
  type BillingTestApp,
  liveBalance,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack } from '../../../../../test/fake-paystack.js';
import { usePaystackSuite } from '../../../../../test/paystack-suite.js';
import { newPaymentReference } from '../../payments/reference.js';

// Card checkouts against a fake Paystack that speaks Paystack's formats and posts signed webhooks to the service over
// HTTP: the checkout, its webhooks (genuine, repeated, forged, late or missing) and the reconciliation lookup.

const HOUR = 60 * 60 * 1000;
const suite = usePaystackSuite();
const { startCheckout, alarmLines } = suite;
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});

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
