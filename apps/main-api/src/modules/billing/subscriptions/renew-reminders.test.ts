import { mailSubscriptionReminders, notifications } from '@platform/db/schema';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID } from '../../../../test/billing-fixtures.js';
import { useSubscriptionApp } from '../../../../test/subscription-app.js';
import { insertSavedCard, insertSubscription, subscriptionOf } from '../../../../test/subscription-fixtures.js';

// Reminders of a renewal 7 days and 1 day before it (renew-reminders.ts, docs/decisions.md#renewal-reminders), sent by the renewal job
// with a moved clock: each once per renewal, however many rounds run. Instances racing are in concurrency.test.ts.

const COLLEAGUE_ID = 'user_reminded_colleague';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const suite = useSubscriptionApp({ members: [[COLLEAGUE_ID, 'member']] });
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

// Bought on 31 January: renews on 29 February 00:00 UTC, then on 31 March.
const growth20 = { plan: 'growth', seats: 20, cycle: 'monthly', anchor: '2024-01-31' } as const;
const RENEWAL = new Date('2024-02-29T00:00:00.000Z').getTime();

async function remindersOf(userId: string) {
  return t.db
    .select({ title: notifications.title, message: notifications.message, type: notifications.type })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt));
}

async function roundAt(at: number) {
  t.clock.set(new Date(at));
  return t.renew();
}

describe('renewal reminders', () => {
  it('reminds every member 7 days and 1 day before the renewal, each once, with what it will cost', async () => {
    const card = await insertSavedCard(t.db, t.organizationId);
    await insertSubscription(t.db, t.organizationId, { ...growth20, credit: 1_000, paymentMethodId: card });
    expect(await roundAt(RENEWAL - 7 * DAY - MINUTE)).toMatchObject({ reminded: 0 });
    expect(await roundAt(RENEWAL - 7 * DAY + MINUTE)).toMatchObject({ reminded: 1 });
    expect(await roundAt(RENEWAL - 7 * DAY + 2 * MINUTE)).toMatchObject({ reminded: 0 });
    expect(await roundAt(RENEWAL - 3 * DAY)).toMatchObject({ reminded: 0 });
    expect(await roundAt(RENEWAL - DAY - MINUTE)).toMatchObject({ reminded: 0 });
    expect(await roundAt(RENEWAL - DAY + MINUTE)).toMatchObject({ reminded: 1 });
    expect(await roundAt(RENEWAL - 10 * MINUTE)).toMatchObject({ reminded: 0 });

    for (const userId of [PAYER_ID, COLLEAGUE_ID]) {
      expect(await remindersOf(userId)).toEqual([
        {
          title: 'Mail subscription renews in 7 days',
          type: 'info',
          message:
            'On 2024-02-29 the growth plan, 20 mailboxes, billed monthly renews for KES 3,000: KES 1,000 comes from ' +
            'the credit balance and KES 2,000 will be charged to the saved card. To stop it, cancel the subscription ' +
            'before then.',
        },
        expect.objectContaining({ title: 'Mail subscription renews tomorrow' }),
      ]);
    }
    const { id } = await subscriptionOf(t.db, t.organizationId);
    expect(
      await t.db
        .select({ kind: mailSubscriptionReminders.kind, renewsAt: mailSubscriptionReminders.renewsAt })
        .from(mailSubscriptionReminders)
        .where(eq(mailSubscriptionReminders.subscriptionId, id))
        .orderBy(asc(mailSubscriptionReminders.sentAt)),
    ).toEqual([
      { kind: '7_days', renewsAt: new Date(RENEWAL) },
      { kind: '1_day', renewsAt: new Date(RENEWAL) },
    ]);
  });

  it('says so when no saved card can pay what the credit does not', async () => {
    await insertSubscription(t.db, t.organizationId, { ...growth20, credit: 1_000 });
    expect(await roundAt(RENEWAL - 7 * DAY + MINUTE)).toMatchObject({ reminded: 1 });
    expect((await remindersOf(COLLEAGUE_ID)).map((note) => note.message)).toEqual([
      'On 2024-02-29 the growth plan, 20 mailboxes, billed monthly renews for KES 3,000: KES 1,000 comes from the ' +
        'credit balance and KES 2,000 is to be charged to a card, and no saved card can pay it: save a card before ' +
        'then, or the renewal fails and is tried again. To stop it, cancel the subscription before then.',
    ]);
  });

  it('sends only the 1-day reminder when the job first runs within a day of the renewal', async () => {
    await insertSubscription(t.db, t.organizationId, growth20);
    expect(await roundAt(RENEWAL - 12 * 60 * MINUTE)).toMatchObject({ reminded: 1 });
    expect((await remindersOf(COLLEAGUE_ID)).map((note) => note.title)).toEqual(['Mail subscription renews tomorrow']);
  });

  it('reminds again of the next renewal, once the period has renewed', async () => {
    const card = await insertSavedCard(t.db, t.organizationId);
    await insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: card });
    await roundAt(RENEWAL - 6 * DAY);
    expect(await roundAt(RENEWAL + MINUTE)).toMatchObject({ renewed: 1, reminded: 0 });
    // The next renewal is on 31 March.
    expect(await roundAt(new Date('2024-03-24T06:00:00.000Z').getTime())).toMatchObject({ reminded: 1 });
    const titles = (await remindersOf(COLLEAGUE_ID)).map((note) => note.title);
    expect(titles.filter((title) => title === 'Mail subscription renews in 7 days')).toHaveLength(2);
  });

  it('names the terms of a scheduled downgrade, and reminds nobody of a subscription set to cancel', async () => {
    await insertSubscription(t.db, t.organizationId, growth20);
    t.clock.set(new Date('2024-02-15T10:00:00.000Z'));
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/upgrade',
      headers: await t.headers(),
      payload: { newPlan: 'core', newSeats: 20, newCycle: 'monthly' },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(await roundAt(RENEWAL - 7 * DAY + MINUTE)).toMatchObject({ reminded: 1 });
    const [reminder] = (await remindersOf(COLLEAGUE_ID)).filter((note) =>
      note.title.startsWith('Mail subscription renews'),
    );
    expect(reminder?.message).toContain(
      'the core plan, 20 mailboxes, billed monthly (the change scheduled from the growth plan, 20 mailboxes, billed monthly) renews for KES 2,000',
    );

    t.clock.set(new Date(RENEWAL - 3 * DAY));
    const canceled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/subscription/cancel',
      headers: await t.headers(),
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await roundAt(RENEWAL - DAY + MINUTE)).toMatchObject({ reminded: 0 });
  });
});
