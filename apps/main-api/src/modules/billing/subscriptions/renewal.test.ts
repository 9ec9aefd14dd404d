import { memberships, notifications } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID, startBillingApp } from '../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../test/fake-paystack.js';
import { insertUser } from '../../../../test/helpers.js';
import {
  changesOf,
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';
import { PAST_DUE_GRACE_MS, RENEWAL_RETRY_AFTER_MS } from './past-due.js';

// The renewal job with a moved clock, charging saved cards through a fake Paystack.

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const COLLEAGUE_ID = 'user_colleague';
let t: BillingTestApp;
let paystack: FakePaystack;

beforeAll(async () => {
  paystack = await startFakePaystack();
  paystack.approvedAuthorizations.add('AUTH_good');
  t = await startBillingApp({ env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url } });
  await insertUser(t.db, { id: COLLEAGUE_ID });
  await t.db.insert(memberships).values({ organizationId: t.organizationId, userId: COLLEAGUE_ID, role: 'member' });
});
afterAll(async () => {
  await t?.close();
  await paystack?.close();
});
beforeEach(async () => {
  await clearBilling(t.db);
});

// Bought on 31 January: renews on 29 February (2024 is a leap year), then on 31 March, then 30 April.
const growth20 = { plan: 'growth', seats: 20, cycle: 'monthly', anchor: '2024-01-31' } as const;
const price = quote({ plan: 'growth', seats: 20, cycle: 'monthly' }).total;

async function goodCard() {
  return insertSavedCard(t.db, t.organizationId, { provider: 'paystack', authorizationCode: 'AUTH_good' });
}

async function declinedCard() {
  return insertSavedCard(t.db, t.organizationId, { provider: 'paystack', authorizationCode: 'AUTH_declined' });
}

const chargesBefore = () => paystack.charges().length;

describe('renewal at the end of a period', () => {
  it('does nothing before the period ends', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await goodCard() });
    const before = chargesBefore();
    t.clock.set(new Date('2024-02-28T23:59:00.000Z'));
    expect(await t.renew()).toEqual({ renewed: 0, failed: 0, expired: 0, pending: 0 });
    expect(paystack.charges()).toHaveLength(before);
  });

  it('charges the saved card once and moves the period, counting every end from the anchor', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await goodCard() });
    const before = chargesBefore();

    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1, failed: 0 });
    expect(await t.renew()).toMatchObject({ renewed: 0 });
    expect(paystack.charges()).toHaveLength(before + 1);
    expect(paystack.charges().at(-1)?.body).toMatchObject({ amount: price * 100, authorization_code: 'AUTH_good' });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      currentPeriodStart: new Date('2024-02-29T00:00:00.000Z'),
      currentPeriodEnd: new Date('2024-03-31T00:00:00.000Z'),
      renewalDueAt: new Date('2024-03-31T00:00:00.000Z'),
    });
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charge).toMatchObject({
      amount: price,
      status: 'succeeded',
      purpose: 'mail_subscription_renewal',
      userId: null,
    });
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription renewed', 'Receipt issued']);

    t.clock.set(new Date('2024-03-31T06:00:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      periodIndex: 2,
      currentPeriodStart: new Date('2024-03-31T00:00:00.000Z'),
      currentPeriodEnd: new Date('2024-04-30T00:00:00.000Z'),
    });
  });

  it('uses the credit balance first and charges only the rest', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, credit: 1_000, paymentMethodId: await goodCard() });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([
      price - 1_000,
    ]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    expect(await changesOf(t.db, t.organizationId)).toMatchObject([
      { kind: 'renewal', status: 'applied', net: price, creditApplied: 1_000, amountDue: price - 1_000 },
    ]);
  });

  it('charges nothing when the credit covers the period', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, credit: price + 250 });
    const before = chargesBefore();
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    expect(paystack.charges()).toHaveLength(before);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(250);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ status: 'active', periodIndex: 1 });
  });

  it('charges the most recently used card when the subscription has none of its own', async () => {
    await insertSubscription(t.db, t.organizationId, growth20);
    await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_old',
      lastUsedAt: new Date('2023-05-01'),
    });
    const recent = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_good',
      lastUsedAt: new Date('2024-01-31'),
    });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    expect((await subscriptionChargesOf(t.db, t.organizationId))[0]?.paymentMethodId).toBe(recent);
  });
});

describe('a renewal that cannot be paid', () => {
  it('makes the subscription past_due and notifies every member when the card is declined', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await declinedCard() });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 0, failed: 1 });

    const subscription = await subscriptionOf(t.db, t.organizationId);
    expect(subscription).toMatchObject({
      status: 'past_due',
      plan: 'growth',
      periodIndex: 0,
      currentPeriodEnd: new Date('2024-02-29T00:00:00.000Z'),
    });
    // Retried a day later.
    const retryIn = (subscription.renewalDueAt?.getTime() ?? 0) - t.clock.now().getTime();
    expect(retryIn).toBeGreaterThan(RENEWAL_RETRY_AFTER_MS - MINUTE);
    expect(retryIn).toBeLessThanOrEqual(RENEWAL_RETRY_AFTER_MS);
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription payment failed']);
    const [note] = await t.db.select().from(notifications).where(eq(notifications.userId, PAYER_ID));
    expect(note).toMatchObject({ type: 'error', organizationId: t.organizationId });
    expect(note?.message).toContain('Declined');
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.status)).toEqual(['failed']);

    // Not retried before its time.
    expect(await t.renew()).toMatchObject({ failed: 0 });
  });

  it("is reactivated by the job's retry once the card pays, from the end of the unpaid period", async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await declinedCard() });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    await t.renew();
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('past_due');

    paystack.approvedAuthorizations.add('AUTH_declined');
    try {
      t.clock.advance(RENEWAL_RETRY_AFTER_MS + MINUTE);
      expect(await t.renew()).toMatchObject({ renewed: 1 });
    } finally {
      paystack.approvedAuthorizations.delete('AUTH_declined');
    }
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      currentPeriodStart: new Date('2024-02-29T00:00:00.000Z'),
      currentPeriodEnd: new Date('2024-03-31T00:00:00.000Z'),
    });
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription payment failed',
      'Mail subscription renewed',
      'Receipt issued',
    ]);
  });

  it('is reactivated by a new purchase, which starts a new period', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await declinedCard() });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    await t.renew();
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('past_due');

    t.clock.set(new Date('2024-03-03T09:00:00.000Z'));
    const card = await goodCard();
    const bought = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: {
        method: 'saved_method',
        paymentMethodId: card,
        metadata: { type: 'mail_subscription', plan: 'growth', seats: 20, billingCycle: 'monthly' },
      },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'active',
      billingAnchor: '2024-03-03',
      periodIndex: 0,
      currentPeriodEnd: new Date('2024-04-03T00:00:00.000Z'),
      paymentMethodId: card,
    });
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription payment failed',
      'Mail subscription reactivated',
      'Receipt issued',
    ]);
  });

  it('makes it past_due when there is no saved card to charge', async () => {
    await insertSubscription(t.db, t.organizationId, growth20);
    const before = chargesBefore();
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ failed: 1 });
    expect(paystack.charges()).toHaveLength(before);
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('past_due');
    expect(await changesOf(t.db, t.organizationId)).toMatchObject([
      { kind: 'renewal', status: 'failed', failureReason: 'the organization has no saved card that can be charged' },
    ]);
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual(['Mail subscription payment failed']);
  });

  it('ends the subscription when it stays unpaid past the grace period', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await declinedCard() });
    const periodEnd = new Date('2024-02-29T00:00:00.000Z').getTime();
    // Retried about daily until the grace period is over.
    let attempts = 0;
    for (let at = periodEnd + 5 * MINUTE; at < periodEnd + PAST_DUE_GRACE_MS; at += RENEWAL_RETRY_AFTER_MS + MINUTE) {
      t.clock.set(new Date(at));
      expect(await t.renew(), new Date(at).toISOString()).toMatchObject({ failed: 1, expired: 0 });
      attempts += 1;
    }
    expect(attempts).toBe(14);
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('past_due');
    t.clock.set(new Date(periodEnd + PAST_DUE_GRACE_MS + DAY));
    expect(await t.renew()).toMatchObject({ expired: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ status: 'expired', renewalDueAt: null });
    // One notice when it became past_due, one when it ended: the daily retries in between are silent.
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription payment failed',
      'Mail subscription ended',
    ]);
  });
});
