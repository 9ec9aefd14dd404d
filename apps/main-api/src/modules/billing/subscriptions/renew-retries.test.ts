import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, notificationsOf, PAYER_ID } from '../../../../test/billing-fixtures.js';
import type { FakePaystack } from '../../../../test/fake-paystack.js';
import { useSubscriptionApp } from '../../../../test/subscription-app.js';
import {
  changesOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';

// A renewal that cannot be paid (renew-retries.ts), with the renewal job's clock moved and saved cards charged through
// a fake Paystack: past_due, the retries on days 1, 3 and 5 (docs/decisions.md#renewal-retries), reactivation by a
// retry or a new purchase, and the end after the last retry.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const COLLEAGUE_ID = 'user_colleague';
const suite = useSubscriptionApp({ paystack: { approved: ['AUTH_good'] }, members: [[COLLEAGUE_ID, 'member']] });
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});

// Bought on 31 January: renews on 29 February (2024 is a leap year), then on 31 March, then 30 April.
const growth20 = { plan: 'growth', seats: 20, cycle: 'monthly', anchor: '2024-01-31' } as const;

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
