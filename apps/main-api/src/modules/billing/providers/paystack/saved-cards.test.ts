import { paymentMethods } from '@platform/db/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
  CONFIRMATION_DELAY_MS,
  liveBalance,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import type { FakePaystack } from '../../../../../test/fake-paystack.js';
import { usePaystackSuite } from '../../../../../test/paystack-suite.js';

// Saved cards charged through the fake Paystack's charge_authorization: at once, declined, or unanswered and
// confirmed later, never twice for one Idempotency-Key.

const suite = usePaystackSuite();
const { pay, startCheckout } = suite;
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
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
