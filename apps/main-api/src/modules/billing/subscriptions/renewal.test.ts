import { memberships, notifications } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, notificationsOf, PAYER_ID, startBillingApp } from '../../../../test/billing-fixtures.js';
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

// The renewal job with a moved clock, charging saved cards through a fake Paystack: renewals, the retries of an
// unpaid one (docs/decisions.md#renewal-retries) and a scheduled downgrade applied at the period end.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
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

/** The clock moves on while a round runs: a moment the job took is at or up to a minute after the one it was set to. */
function expectShortlyAfter(actual: Date | null | undefined, expected: number) {
  const late = (actual?.getTime() ?? Number.NaN) - expected;
  expect(late, `${actual?.toISOString()} vs ${new Date(expected).toISOString()}`).toBeGreaterThanOrEqual(0);
  expect(late).toBeLessThan(MINUTE);
}

describe('renewal at the end of a period', () => {
  it('does nothing before the period ends', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await goodCard() });
    const before = chargesBefore();
    t.clock.set(new Date('2024-02-28T23:59:00.000Z'));
    // A minute before the renewal, only its reminder is due.
    expect(await t.renew()).toEqual({
      invoiced: 0,
      reminded: 1,
      renewed: 0,
      failed: 0,
      expired: 0,
      canceled: 0,
      pending: 0,
    });
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
    // Retried a day after the failure, which is counted from then.
    expectShortlyAfter(subscription.pastDueSince, new Date('2024-02-29T00:05:00.000Z').getTime());
    expect(subscription.renewalDueAt?.getTime()).toBe((subscription.pastDueSince?.getTime() ?? 0) + DAY);
    expect(subscription.renewalFailures).toBe(1);
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
      t.clock.advance(DAY + MINUTE);
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

  it('tries again on days 1, 3 and 5 after the first failure, telling the members each time, then ends it', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: await declinedCard() });
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ failed: 1, expired: 0 });
    // The retries count from the moment of the first failure, as the job's clock had it.
    const firstFailure = (await subscriptionOf(t.db, t.organizationId)).pastDueSince?.getTime() ?? 0;
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription payment failed']);
    const [first] = await notificationsOf(t.db, COLLEAGUE_ID);
    expect(first?.message).toContain('tried again on 2024-03-01, 2024-03-03 and 2024-03-05');

    const attempts: string[] = [];
    // Each retry is due on its day, not before: a round a minute early does nothing.
    for (const [retry, days] of [
      [1, 1],
      [2, 3],
    ] as const) {
      t.clock.set(new Date(firstFailure + days * DAY - MINUTE));
      expect(await t.renew(), `before retry ${retry}`).toMatchObject({ failed: 0, expired: 0 });
      t.clock.set(new Date(firstFailure + days * DAY + MINUTE));
      expect(await t.renew(), `retry ${retry}`).toMatchObject({ failed: 1, expired: 0 });
      attempts.push(t.clock.now().toISOString());
      expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
        status: 'past_due',
        plan: 'growth',
        renewalFailures: retry + 1,
        pastDueSince: new Date(firstFailure),
        renewalDueAt: new Date(firstFailure + (retry === 1 ? 3 : 5) * DAY),
      });
    }
    t.clock.set(new Date(firstFailure + 5 * DAY - MINUTE));
    expect(await t.renew()).toMatchObject({ failed: 0, expired: 0 });
    t.clock.set(new Date(firstFailure + 5 * DAY + MINUTE));
    expect(await t.renew()).toMatchObject({ failed: 0, expired: 1 });
    const ended = await subscriptionOf(t.db, t.organizationId);
    expect(ended).toMatchObject({ status: 'expired', renewalDueAt: null, pastDueSince: null });
    expectShortlyAfter(ended.endedAt, firstFailure + 5 * DAY + MINUTE);
    // The first failure and three retries: four declined charges, nothing more after the end.
    const charges = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charges.map((charge) => charge.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    t.clock.set(new Date(firstFailure + 40 * DAY));
    expect(await t.renew()).toMatchObject({ failed: 0, expired: 0, renewed: 0 });
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(4);

    // A notice at each step: the failure, each failed retry, the end.
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription payment failed',
      'Mail subscription payment failed again',
      'Mail subscription payment failed again',
      'Mail subscription ended',
    ]);
    const messages = (await notificationsOf(t.db, COLLEAGUE_ID)).map((note) => note.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Try 1 of 3'),
        expect.stringContaining('Try 2 of 3'),
        expect.stringContaining('the last try failed'),
      ]),
    );
    expect(messages.find((message) => message.includes('Try 1 of 3'))).toContain('The next try is on 2024-03-03');
    expect(attempts).toHaveLength(2);
  });

  it('counts a retry with no card to charge like a declined one, and ends the subscription after the last', async () => {
    await insertSubscription(t.db, t.organizationId, growth20);
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    const outcomes = [await t.renew()];
    const firstFailure = (await subscriptionOf(t.db, t.organizationId)).pastDueSince?.getTime() ?? 0;
    for (const days of [1, 3, 5]) {
      t.clock.set(new Date(firstFailure + days * DAY + MINUTE));
      outcomes.push(await t.renew());
    }
    expect(outcomes.map((round) => [round.failed, round.expired])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [0, 1],
    ]);
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription payment failed',
      'Mail subscription payment failed again',
      'Mail subscription payment failed again',
      'Mail subscription ended',
    ]);
  });

  it('keeps the schedule of a subscription made past_due before it existed, counting from its period end', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, status: 'past_due' });
    // As migration 0021 left such rows: one failure, at the period end (29 February).
    const periodEnd = new Date('2024-02-29T00:00:00.000Z').getTime();
    t.clock.set(new Date(periodEnd + 2 * DAY));
    expect(await t.renew()).toMatchObject({ failed: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'past_due',
      pastDueSince: new Date(periodEnd),
      renewalFailures: 2,
      renewalDueAt: new Date(periodEnd + 3 * DAY),
    });
    // A retry whose day has passed already (this one's answer came late) is not made at once, but an hour later.
    t.clock.set(new Date(periodEnd + 6 * DAY));
    expect(await t.renew()).toMatchObject({ failed: 1, expired: 0 });
    expectShortlyAfter((await subscriptionOf(t.db, t.organizationId)).renewalDueAt, periodEnd + 6 * DAY + HOUR);
    t.clock.advance(HOUR + MINUTE);
    expect(await t.renew()).toMatchObject({ failed: 0, expired: 1 });
  });
});

describe('a downgrade scheduled for the period end', () => {
  it('is applied by the renewal, which charges the new price and starts the new terms', async () => {
    // scale 40 yearly (88,000) to core 10 monthly (1,000): a downgrade, also of the cycle.
    const scale40 = { plan: 'scale', seats: 40, cycle: 'yearly', anchor: '2023-02-28' } as const;
    await insertSubscription(t.db, t.organizationId, { ...scale40, paymentMethodId: await goodCard() });
    t.clock.set(new Date('2024-02-10T09:00:00.000Z'));
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/upgrade',
      headers: await t.headers(),
      payload: { newPlan: 'core', newSeats: 10, newCycle: 'monthly' },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ plan: 'scale', seats: 40 });

    t.clock.set(new Date('2024-02-28T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    const monthly = quote({ plan: 'core', seats: 10, cycle: 'monthly' }).total;
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => [charge.amount, charge.plan])).toEqual(
      [[monthly, 'core']],
    );
    // A new cycle: anchored on the day the old period ended.
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'core',
      seats: 10,
      billingCycle: 'monthly',
      billingAnchor: '2024-02-28',
      periodIndex: 0,
      currentPeriodStart: new Date('2024-02-28T00:00:00.000Z'),
      currentPeriodEnd: new Date('2024-03-28T00:00:00.000Z'),
      scheduledPlan: null,
      scheduledAt: null,
    });
    expect(await changesOf(t.db, t.organizationId)).toMatchObject([
      {
        kind: 'renewal',
        status: 'applied',
        fromPlan: 'scale',
        fromSeats: 40,
        fromBillingCycle: 'yearly',
        plan: 'core',
        seats: 10,
        billingCycle: 'monthly',
        amountDue: monthly,
        requestedByUserId: PAYER_ID,
      },
    ]);
    const renewed = (await notificationsOf(t.db, COLLEAGUE_ID)).find(
      (note) => note.title === 'Mail subscription renewed',
    );
    expect(renewed?.message).toContain('changed from the scale plan, 40 mailboxes, billed yearly, as scheduled');
    // The next renewal is at the new terms, from the new anchor.
    t.clock.set(new Date('2024-03-28T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'core',
      periodIndex: 1,
      currentPeriodEnd: new Date('2024-04-28T00:00:00.000Z'),
    });
  });
});
