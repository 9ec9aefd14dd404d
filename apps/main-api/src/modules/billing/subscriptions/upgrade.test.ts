import { randomUUID } from 'node:crypto';
import type { BillingCycle, MailPlan } from '@platform/db';
import { idempotencyRecords, mailSubscriptionChanges, memberships, payments } from '@platform/db/schema';
import { prorate, quote } from '@platform/pricing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID, startBillingApp } from '../../../../test/billing-fixtures.js';
import { insertUser, tokenFor } from '../../../../test/helpers.js';
import {
  changesOf,
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSavedNumber,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';
import { billingPeriod } from './periods.js';

// Preview and upgrade through the API, paid with a saved sandbox card (always approved).

let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearBilling(t.db);
  await t.db.delete(idempotencyRecords);
});

interface Terms {
  plan: MailPlan;
  seats: number;
  cycle: BillingCycle;
}

async function preview(next: Terms | Record<string, string>) {
  const query =
    'plan' in next && typeof next.seats === 'number'
      ? new URLSearchParams({ newPlan: next.plan, newSeats: String(next.seats), newCycle: next.cycle })
      : new URLSearchParams(next as Record<string, string>);
  return t.app.inject({ method: 'GET', url: `/v1/billing/upgrade/preview?${query}`, headers: await t.headers() });
}

async function upgrade(body: object, extraHeaders: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/upgrade',
    headers: await t.headers(extraHeaders),
    payload: body,
  });
}

function upgradeBody(next: Terms, paymentMethodId?: string) {
  return {
    newPlan: next.plan,
    newSeats: next.seats,
    newCycle: next.cycle,
    ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
  };
}

interface Case {
  name: string;
  current: Terms & { anchor: string; periodIndex?: number; credit?: number };
  next: Terms;
  /** The day of the change, UTC. */
  on: string;
  /**
   * Worked out by hand from the spec's price table (2.2) and docs/decisions.md#proration, not by the pricing
   * package, so a mistake there cannot hide in both sides: D days in the period, r left from today, net and amount due.
   */
  worked: { D: number; r: number; net: number; amountDueToday: number };
}

const cases: Case[] = [
  {
    name: 'same cycle, up, mid-period, no credit',
    current: { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' },
    next: { plan: 'growth', seats: 25, cycle: 'monthly' },
    on: '2024-01-17',
    // core 10 = 1,000; growth 25 = 3,750. Jan: D 31, r 15 (17th-31st). (3,750 - 1,000) x 15 / 31 = 1,330.6 -> 1,331.
    worked: { D: 31, r: 15, net: 1331, amountDueToday: 1331 },
  },
  {
    name: 'same cycle, down, mid-period, with credit',
    current: { plan: 'growth', seats: 25, cycle: 'monthly', anchor: '2024-01-01', credit: 300 },
    next: { plan: 'core', seats: 10, cycle: 'monthly' },
    on: '2024-01-17',
    // 1,000 - 3,750 = -2,750; x 15 / 31 = -1,330.6 -> -1,331 credit; nothing due.
    worked: { D: 31, r: 15, net: -1331, amountDueToday: 0 },
  },
  {
    name: 'same cycle, fewer seats crossing into a dearer tier (51 -> 50 growth costs more)',
    current: { plan: 'growth', seats: 51, cycle: 'yearly', anchor: '2023-09-10' },
    next: { plan: 'growth', seats: 50, cycle: 'yearly' },
    on: '2024-03-02',
    // growth 51 yearly = 51 x 130 x 10 = 66,300; growth 50 yearly = 50 x 150 x 10 = 75,000.
    // 2023-09-10..2024-09-10: D 366 (29 Feb); r 192 from 2 Mar. 8,700 x 192 / 366 = 4,563.9 -> 4,564.
    worked: { D: 366, r: 192, net: 4564, amountDueToday: 4564 },
  },
  {
    name: 'monthly to yearly on the first day of a period',
    current: { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-31', periodIndex: 1 },
    next: { plan: 'core', seats: 10, cycle: 'yearly' },
    on: '2024-02-29',
    // Period 1 of a 31 Jan anchor: 29 Feb..31 Mar, D 31, r 31. core 10 yearly 10,000 - 1,000 x 31/31 = 9,000.
    worked: { D: 31, r: 31, net: 9000, amountDueToday: 9000 },
  },
  {
    name: 'monthly to yearly on the last day of a period, with credit',
    current: { plan: 'growth', seats: 60, cycle: 'monthly', anchor: '2024-01-31', periodIndex: 1, credit: 2_000 },
    next: { plan: 'scale', seats: 60, cycle: 'yearly' },
    on: '2024-03-30',
    // growth 60 monthly = 60 x 130 = 7,800; scale 60 yearly = 60 x 200 x 10 = 120,000. D 31, r 1.
    // 120,000 - round(7,800 / 31 = 251.6 -> 252) = 119,748; the 2,000 credit leaves 117,748.
    worked: { D: 31, r: 1, net: 119748, amountDueToday: 117748 },
  },
  {
    name: 'yearly to monthly on the last day of a period',
    current: { plan: 'scale', seats: 600, cycle: 'yearly', anchor: '2023-06-15' },
    next: { plan: 'scale', seats: 600, cycle: 'monthly' },
    on: '2024-06-14',
    // scale 600 = 600 x 180 = 108,000 a month, 1,080,000 a year. D 366, r 1.
    // 108,000 - round(1,080,000 / 366 = 2,950.8 -> 2,951) = 105,049.
    worked: { D: 366, r: 1, net: 105049, amountDueToday: 105049 },
  },
  {
    name: 'yearly to monthly on the first day of a period, with credit: the unused year becomes credit',
    current: { plan: 'core', seats: 5, cycle: 'yearly', anchor: '2023-06-15', periodIndex: 1, credit: 150 },
    next: { plan: 'core', seats: 5, cycle: 'monthly' },
    on: '2024-06-15',
    // core 5 = 500 a month, 5,000 a year. 2024-06-15..2025-06-15: D 365, r 365. 500 - 5,000 = -4,500.
    worked: { D: 365, r: 365, net: -4500, amountDueToday: 0 },
  },
  {
    name: 'same cycle, up, on the first day, credit covering all of it',
    current: { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-04-30', credit: 5_000 },
    next: { plan: 'core', seats: 60, cycle: 'monthly' },
    on: '2024-04-30',
    // core 10 = 1,000; core 60 = 60 x 80 = 4,800. 30 Apr..30 May: D 30, r 30. net 3,800, all paid by 5,000 credit.
    worked: { D: 30, r: 30, net: 3800, amountDueToday: 0 },
  },
  {
    name: 'same cycle, up, on the last day, with partial credit',
    current: { plan: 'core', seats: 100, cycle: 'monthly', anchor: '2024-04-30', credit: 100 },
    next: { plan: 'scale', seats: 100, cycle: 'monthly' },
    on: '2024-05-29',
    // core 100 = 100 x 80 = 8,000; scale 100 = 100 x 200 = 20,000. D 30, r 1. 12,000 / 30 = 400; 100 credit -> 300.
    worked: { D: 30, r: 1, net: 400, amountDueToday: 300 },
  },
  {
    name: 'same cycle, down, no credit: a half shilling of credit rounds away from zero',
    current: { plan: 'growth', seats: 7, cycle: 'monthly', anchor: '2023-02-01' },
    next: { plan: 'core', seats: 7, cycle: 'monthly' },
    on: '2023-02-26',
    // growth 7 = 7 x 150 = 1,050; core 7 = 700. Feb 2023: D 28, r 3 (26th-28th).
    // -350 x 3 / 28 = -37.5 -> -38: the credit mirrors what the same upgrade would charge (37.5 -> 38).
    worked: { D: 28, r: 3, net: -38, amountDueToday: 0 },
  },
  {
    name: 'same cycle, yearly, down to a cheaper plan, no credit',
    current: { plan: 'growth', seats: 120, cycle: 'yearly', anchor: '2024-01-31' },
    next: { plan: 'core', seats: 120, cycle: 'yearly' },
    on: '2024-07-04',
    // growth 120 yearly = 120 x 130 x 10 = 156,000; core 120 yearly = 120 x 80 x 10 = 96,000.
    // 2024-01-31..2025-01-31: D 366; r 211 from 4 Jul. -60,000 x 211 / 366 = -34,590.2 -> -34,590.
    worked: { D: 366, r: 211, net: -34_590, amountDueToday: 0 },
  },
];

describe('the preview and the upgrade made the same day agree to the shilling', () => {
  it.each(cases.filter((candidate) => candidate.worked.net >= 0))('$name', async ({ current, next, on, worked }) => {
    await insertSubscription(t.db, t.organizationId, current);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date(`${on}T08:30:00.000Z`));

    const period = billingPeriod(current.anchor, current.cycle, current.periodIndex ?? 0);
    const expected = prorate({
      current: { ...current, periodStart: period.start, periodEnd: period.end },
      next,
      today: on,
      creditBalance: current.credit ?? 0,
    });

    const previewed = await preview(next);
    expect(previewed.statusCode).toBe(200);
    const data = previewed.json().data;
    expect(data).toMatchObject({
      amountDueToday: worked.amountDueToday,
      net: worked.net,
      daysInPeriod: worked.D,
      daysRemaining: worked.r,
      kind: 'upgrade',
      takesEffect: 'now',
      cancelsScheduledChange: false,
      creditAdded: 0,
    });
    expect(data).toMatchObject({
      amountDueToday: expected.amountDueToday,
      net: expected.net,
      creditBalance: current.credit ?? 0,
      daysInPeriod: expected.daysInPeriod,
      daysRemaining: expected.daysRemaining,
      cycleChanged: expected.cycleChanged,
      newPeriod: expected.newPeriod,
      newPrice: expected.nextQuote.total,
    });

    // Later the same day.
    t.clock.set(new Date(`${on}T21:45:00.000Z`));
    const response = await upgrade(upgradeBody(next, cardId));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: expect.any(String) });

    const charges = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charges.map((charge) => charge.amount)).toEqual(worked.amountDueToday > 0 ? [worked.amountDueToday] : []);
    expect(charges.every((charge) => charge.status === 'succeeded' && charge.method === 'saved_method')).toBe(true);
    expect(charges.every((charge) => charge.reference.startsWith('PAY-') && charge.paymentMethodId === cardId)).toBe(
      true,
    );
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe((current.credit ?? 0) - data.creditApplied);

    const subscription = await subscriptionOf(t.db, t.organizationId);
    expect(subscription).toMatchObject({
      plan: next.plan,
      seats: next.seats,
      billingCycle: next.cycle,
      status: 'active',
      currentPeriodStart: new Date(`${expected.newPeriod.start}T00:00:00.000Z`),
      currentPeriodEnd: new Date(`${expected.newPeriod.end}T00:00:00.000Z`),
      renewalDueAt: new Date(`${expected.newPeriod.end}T00:00:00.000Z`),
    });
    if (expected.cycleChanged) expect(subscription).toMatchObject({ billingAnchor: on, periodIndex: 0 });
    const [change] = await changesOf(t.db, t.organizationId);
    expect(change).toMatchObject({ status: 'applied', net: expected.net, amountDue: expected.amountDueToday });
  });
});

// A change priced lower (a negative prorated net) waits for the period end (docs/decisions.md#scheduled-downgrades):
// the preview says so, and the upgrade schedules it, charging and crediting nothing.
describe('a downgrade: the preview and the upgrade agree that it waits for the period end', () => {
  it.each(cases.filter((candidate) => candidate.worked.net < 0))('$name', async ({ current, next, on, worked }) => {
    await insertSubscription(t.db, t.organizationId, current);
    t.clock.set(new Date(`${on}T08:30:00.000Z`));
    const period = billingPeriod(current.anchor, current.cycle, current.periodIndex ?? 0);
    // The period after the current one: on a new cycle, its first, from the day the current one ends.
    const after =
      next.cycle === current.cycle
        ? billingPeriod(current.anchor, current.cycle, (current.periodIndex ?? 0) + 1)
        : billingPeriod(period.end.toISOString().slice(0, 10), next.cycle, 0);
    const day = (moment: Date) => moment.toISOString().slice(0, 10);

    const previewed = await preview(next);
    expect(previewed.statusCode).toBe(200);
    expect(previewed.json().data).toMatchObject({
      amountDueToday: 0,
      kind: 'downgrade',
      takesEffect: 'period_end',
      cancelsScheduledChange: false,
      net: 0,
      creditApplied: 0,
      creditAdded: 0,
      creditBalance: current.credit ?? 0,
      daysInPeriod: worked.D,
      daysRemaining: worked.r,
      cycleChanged: next.cycle !== current.cycle,
      newPeriod: { start: day(after.start), end: day(after.end) },
      newPrice: quote(next).total,
    });

    t.clock.set(new Date(`${on}T21:45:00.000Z`));
    const response = await upgrade(upgradeBody(next));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toContain(
      `From ${day(period.end)} the subscription moves to the ${next.plan} plan`,
    );

    expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(current.credit ?? 0);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: current.plan,
      seats: current.seats,
      billingCycle: current.cycle,
      status: 'active',
      currentPeriodEnd: period.end,
      renewalDueAt: period.end,
      scheduledPlan: next.plan,
      scheduledSeats: next.seats,
      scheduledBillingCycle: next.cycle,
      scheduledByUserId: PAYER_ID,
    });
  });
});

describe('POST /v1/billing/upgrade', () => {
  const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;
  const growth25: Terms = { plan: 'growth', seats: 25, cycle: 'monthly' };

  it('charges an upgrade; the way back waits for the period end, and asking for the current terms cancels it', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

    expect((await upgrade(upgradeBody(growth25, cardId))).statusCode).toBe(200);
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charge?.amount).toBeGreaterThan(0);

    const core10Terms: Terms = { plan: 'core', seats: 10, cycle: 'monthly' };
    const back = await upgrade(upgradeBody(core10Terms));
    expect(back.statusCode).toBe(200);
    expect(back.json().message).toBe(
      'Mail subscription change scheduled. From 2024-02-01 the subscription moves to the core plan, 10 mailboxes, ' +
        'billed monthly, at KES 1,000 a period; until then it stays on the growth plan, 25 mailboxes, billed monthly. ' +
        'Nothing is charged or credited now.',
    );
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    const shown = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(shown.json().data).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledChange: {
        plan: 'core',
        seats: 10,
        billingCycle: 'monthly',
        effectiveAt: '2024-02-01T00:00:00.000Z',
        price: 1_000,
        requestedAt: expect.stringMatching(/^2024-01-17T10:00/),
      },
    });

    // The current terms again: the scheduled change is dropped, nothing else happens.
    const keep = await preview(growth25);
    expect(keep.json().data).toMatchObject({
      amountDueToday: 0,
      kind: 'change',
      takesEffect: 'now',
      cancelsScheduledChange: true,
      net: 0,
    });
    const kept = await upgrade(upgradeBody(growth25));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().message).toContain('Scheduled subscription change canceled');
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledPlan: null,
      scheduledSeats: null,
      scheduledBillingCycle: null,
      scheduledAt: null,
    });
    // Now nothing is scheduled: the current terms are "nothing to change" again.
    expect((await upgrade(upgradeBody(growth25))).statusCode).toBe(400);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription upgraded',
      'Payment received',
      'Receipt issued',
      'Mail subscription change scheduled',
      'Scheduled subscription change canceled',
    ]);
  });

  it('replaces a scheduled downgrade with another; the same one again changes and records nothing', async () => {
    await insertSubscription(t.db, t.organizationId, {
      plan: 'scale',
      seats: 40,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const growth40: Terms = { plan: 'growth', seats: 40, cycle: 'monthly' };
    const core40: Terms = { plan: 'core', seats: 40, cycle: 'monthly' };
    expect((await upgrade(upgradeBody(growth40))).statusCode).toBe(200);
    expect((await preview(core40)).json().data).toMatchObject({ kind: 'downgrade', cancelsScheduledChange: true });
    expect((await upgrade(upgradeBody(core40))).statusCode).toBe(200);
    expect((await preview(core40)).json().data).toMatchObject({ kind: 'downgrade', cancelsScheduledChange: false });
    const again = await upgrade(upgradeBody(core40));
    expect(again.statusCode).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'scale',
      scheduledPlan: 'core',
      scheduledSeats: 40,
    });
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription change scheduled',
      'Mail subscription change scheduled',
    ]);
  });

  it('drops a scheduled downgrade when an upgrade is made now, charged as it is today', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    expect((await upgrade(upgradeBody({ plan: 'core', seats: 5, cycle: 'monthly' }))).statusCode).toBe(200);
    expect((await preview(growth25)).json().data).toMatchObject({
      kind: 'upgrade',
      takesEffect: 'now',
      cancelsScheduledChange: true,
      amountDueToday: 1331,
    });
    expect((await upgrade(upgradeBody(growth25, cardId))).statusCode).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledPlan: null,
    });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([1331]);
  });

  it('answers with the message only, naming what was charged', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await upgrade(upgradeBody(growth25, cardId));
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(response.json()).toEqual({
      success: true,
      message: `Mail subscription upgraded. Now on the growth plan, 25 mailboxes, billed monthly, until 2024-02-01. KES 1,331 charged to the card (${charge?.reference}).`,
    });
    expect((await subscriptionOf(t.db, t.organizationId)).paymentMethodId).toBe(cardId);
  });

  it('moves monthly to yearly at once, and schedules the way back for the end of the year', async () => {
    const growth25Monthly = { plan: 'growth', seats: 25, cycle: 'monthly', anchor: '2024-01-01' } as const;
    await insertSubscription(t.db, t.organizationId, growth25Monthly);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    const yearly: Terms = { plan: 'growth', seats: 25, cycle: 'yearly' };
    const monthly: Terms = { plan: 'growth', seats: 25, cycle: 'monthly' };

    // 17 Jan, period 1 Jan..1 Feb: D 31, r 15. growth 25 = 25 x 150 = 3,750 a month, 37,500 a year.
    // To yearly: a year from today, 37,500, less the unused 15/31 of January, 3,750 x 15 / 31 = 1,814.52 -> 1,815.
    t.clock.set(new Date('2024-01-17T09:00:00.000Z'));
    const toYearly = (await preview(yearly)).json().data;
    expect(toYearly).toMatchObject({
      amountDueToday: 35_685,
      net: 35_685,
      takesEffect: 'now',
      newPeriod: { start: '2024-01-17', end: '2025-01-17' },
    });
    expect((await upgrade(upgradeBody(yearly, cardId))).statusCode).toBe(200);
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([35_685]);

    // Back the same day: a month from today, 3,750, less the whole unused year, 37,500, is priced lower: it waits for
    // the end of the year, and the first monthly period starts then.
    t.clock.set(new Date('2024-01-17T16:00:00.000Z'));
    const back = (await preview(monthly)).json().data;
    expect(back).toMatchObject({
      amountDueToday: 0,
      kind: 'downgrade',
      takesEffect: 'period_end',
      net: 0,
      creditAdded: 0,
      daysInPeriod: 366,
      daysRemaining: 366,
      cycleChanged: true,
      newPeriod: { start: '2025-01-17', end: '2025-02-17' },
      newPrice: 3_750,
    });
    const response = await upgrade(upgradeBody(monthly));
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain('From 2025-01-17 the subscription moves to the growth plan');

    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([35_685]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      billingCycle: 'yearly',
      status: 'active',
      billingAnchor: '2024-01-17',
      currentPeriodEnd: new Date('2025-01-17T00:00:00.000Z'),
      scheduledBillingCycle: 'monthly',
    });
    expect(
      (await changesOf(t.db, t.organizationId)).map((change) => [change.status, change.net, change.amountDue]),
    ).toEqual([['applied', 35_685, 35_685]]);
  });

  it('replays a retried upgrade with the same Idempotency-Key without charging again', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const key = { 'idempotency-key': 'upgrade-growth-25' };
    const first = await upgrade(upgradeBody(growth25, cardId), key);
    const second = await upgrade(upgradeBody(growth25, cardId), key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    const reused = await upgrade(upgradeBody({ ...growth25, seats: 30 }, cardId), key);
    expect(reused.statusCode).toBe(422);
  });

  it.each(['billing', 'admin'] as const)(
    'lets a %s of the organization, not only its owner, upgrade and charge its saved card',
    async (role) => {
      const userId = `user_${role}_${randomUUID().slice(0, 8)}`;
      await insertUser(t.db, { id: userId });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
      await insertSubscription(t.db, t.organizationId, core10);
      const cardId = await insertSavedCard(t.db, t.organizationId);
      t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers: {
          authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now() })}`,
          'x-organization-id': t.organizationId,
        },
        payload: upgradeBody(growth25, cardId),
      });
      expect(response.statusCode, response.body).toBe(200);
      const charges = await subscriptionChargesOf(t.db, t.organizationId);
      expect(charges.map((charge) => [charge.amount, charge.userId, charge.status])).toEqual([
        [1331, userId, 'succeeded'],
      ]);
    },
  );

  it.each(['developer', 'member'] as const)(
    'refuses a %s the upgrade with 403 naming the roles that may, and charges nothing',
    async (role) => {
      const userId = `user_${role}_${randomUUID().slice(0, 8)}`;
      await insertUser(t.db, { id: userId });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
      await insertSubscription(t.db, t.organizationId, core10);
      const cardId = await insertSavedCard(t.db, t.organizationId);
      t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
      const headers = {
        authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now() })}`,
        'x-organization-id': t.organizationId,
      };

      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers,
        payload: upgradeBody(growth25, cardId),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'forbidden',
        error: 'This needs the role owner, admin or billing',
      });
      expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
      // Reading what an upgrade would cost stays open to every member.
      const preview = await t.app.inject({
        method: 'GET',
        url: '/v1/billing/upgrade/preview?newPlan=growth&newSeats=25&newCycle=monthly',
        headers,
      });
      expect(preview.statusCode, preview.body).toBe(200);
    },
  );

  it('answers 409 without an active subscription, for the preview and the upgrade', async () => {
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    expect((await preview(growth25)).statusCode).toBe(409);
    expect((await upgrade(upgradeBody(growth25))).json()).toMatchObject({ success: false, code: 'conflict' });

    await insertSubscription(t.db, t.organizationId, { ...core10, status: 'past_due' });
    expect((await preview(growth25)).statusCode).toBe(409);
    expect((await upgrade(upgradeBody(growth25))).statusCode).toBe(409);
    await clearBilling(t.db);

    // Active, but its period is over and it is waiting for the renewal job.
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-02-01T00:00:01.000Z'));
    expect((await preview(growth25)).json()).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('renewed'),
    });
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
  });

  it('answers 400 when nothing would change', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const same = { plan: 'core', seats: 10, cycle: 'monthly' } as const;
    expect((await preview(same)).json()).toMatchObject({
      code: 'validation_error',
      error: expect.stringContaining('Nothing would change'),
    });
    expect((await upgrade(upgradeBody(same))).statusCode).toBe(400);
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
  });
});

describe('bad input: 400 (404 for an unknown card) and nothing changes', () => {
  const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;

  async function expectNothingChanged(before: { version: number }) {
    expect((await subscriptionOf(t.db, t.organizationId)).version).toBe(before.version);
    expect(await t.db.select().from(mailSubscriptionChanges)).toEqual([]);
    expect(await t.db.select().from(payments)).toEqual([]);
  }

  it.each([
    ['no parameters', {}, ['newPlan', 'newSeats', 'newCycle']],
    ['no newSeats', { newPlan: 'growth', newCycle: 'monthly' }, ['newSeats']],
    ['zero seats', { newPlan: 'growth', newSeats: '0', newCycle: 'monthly' }, ['newSeats']],
    ['too many seats', { newPlan: 'growth', newSeats: '1000001', newCycle: 'monthly' }, ['newSeats']],
    ['fractional seats', { newPlan: 'growth', newSeats: '1.5', newCycle: 'monthly' }, ['newSeats']],
    ['seats that are not a number', { newPlan: 'growth', newSeats: 'ten', newCycle: 'monthly' }, ['newSeats']],
    // Query text is read as an integer only in its ordinary decimal form (docs/decisions.md#strict-validation).
    ['seats in hexadecimal', { newPlan: 'growth', newSeats: '0x19', newCycle: 'monthly' }, ['newSeats']],
    ['seats in exponent notation', { newPlan: 'growth', newSeats: '1e1', newCycle: 'monthly' }, ['newSeats']],
    ['seats in binary', { newPlan: 'growth', newSeats: '0b11', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a leading space', { newPlan: 'growth', newSeats: ' 25', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a leading zero', { newPlan: 'growth', newSeats: '025', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a plus sign', { newPlan: 'growth', newSeats: '+25', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a decimal point', { newPlan: 'growth', newSeats: '25.0', newCycle: 'monthly' }, ['newSeats']],
    ['empty seats', { newPlan: 'growth', newSeats: '', newCycle: 'monthly' }, ['newSeats']],
    ['an unknown plan', { newPlan: 'gold', newSeats: '10', newCycle: 'monthly' }, ['newPlan']],
    ['an unknown cycle', { newPlan: 'growth', newSeats: '10', newCycle: 'weekly' }, ['newCycle']],
  ])('preview with %s', async (_name, query, fields) => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await preview(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('validation_error');
    for (const field of fields) {
      expect(body.details.map((detail: { path: string }) => detail.path).join(' ')).toContain(field);
    }
    await expectNothingChanged(before);
  });

  it('accepts newSeats written as a number in the query string', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await preview({ newPlan: 'growth', newSeats: '25', newCycle: 'monthly' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ amountDueToday: 1331, newPrice: 3750 });
  });

  it('names newSeats and says it must be an integer when it is not written as one, and refuses it repeated', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const hex = await preview({ newPlan: 'growth', newSeats: '0x19', newCycle: 'monthly' });
    expect(hex.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: 'newSeats must be a whole number from 1 to 1,000,000',
      details: [{ path: 'querystring/newSeats', message: 'must be a whole number from 1 to 1,000,000' }],
    });
    const twice = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/upgrade/preview?newPlan=growth&newSeats=25&newSeats=25&newCycle=monthly',
      headers: await t.headers(),
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details).toEqual([
      { path: 'querystring/newSeats', message: 'must be a whole number from 1 to 1,000,000' },
    ]);
  });

  it.each([
    ['no body fields', {}],
    ['seats as a string', { newPlan: 'growth', newSeats: '25', newCycle: 'monthly' }],
    ['an unknown field', { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', coupon: 'FREE' }],
    ['an unknown plan', { newPlan: 'gold', newSeats: 25, newCycle: 'monthly' }],
    ['no card for a change that costs something', { newPlan: 'growth', newSeats: 25, newCycle: 'monthly' }],
  ])('upgrade with %s', async (_name, body) => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await upgrade(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    await expectNothingChanged(before);
  });

  it("refuses an M-Pesa number with 400, and an unknown, removed or other organization's card with 404", async () => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const body = (paymentMethodId: string) => ({
      newPlan: 'growth',
      newSeats: 25,
      newCycle: 'monthly',
      paymentMethodId,
    });

    const number = await upgrade(body(await insertSavedNumber(t.db, t.organizationId)));
    expect(number.statusCode).toBe(400);
    expect(number.json().error).toContain('Only a saved bank card');

    const otherCard = await insertSavedCard(t.db, t.otherOrganizationId);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', otherCard]) {
      const response = await upgrade(body(id));
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error).toBe('Payment method not found');
    }
    await expectNothingChanged(before);
  });
});

describe('GET /v1/billing/subscription', () => {
  it('shows the subscription with its price and the credit balance, or null without one', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(empty.json()).toEqual({ success: true, data: null });

    const cardId = await insertSavedCard(t.db, t.organizationId);
    await insertSubscription(t.db, t.organizationId, {
      plan: 'growth',
      seats: 120,
      cycle: 'yearly',
      anchor: '2024-01-31',
      credit: 450,
      paymentMethodId: cardId,
    });
    const response = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(response.json()).toEqual({
      success: true,
      data: {
        plan: 'growth',
        seats: 120,
        billingCycle: 'yearly',
        status: 'active',
        currentPeriodStart: '2024-01-31T00:00:00.000Z',
        currentPeriodEnd: '2025-01-31T00:00:00.000Z',
        renewsAt: '2025-01-31T00:00:00.000Z',
        cancelAtPeriodEnd: false,
        canceledAt: null,
        endedAt: null,
        scheduledChange: null,
        price: { tier: '51-500', pricePerSeatMonthly: 130, monthlyTotal: 15_600, total: 156_000 },
        creditBalance: 450,
        paymentMethodId: cardId,
        changeInProgress: false,
      },
    });
  });

  it('shows only the organization in X-Organization-Id, to its members', async () => {
    await insertSubscription(t.db, t.otherOrganizationId, {
      plan: 'scale',
      seats: 5,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
    const mine = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(mine.json().data).toBeNull();
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/subscription',
      headers: await t.headers({ 'x-organization-id': t.otherOrganizationId }),
    });
    expect(theirs.statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the subscription routes, with the three preview parameters required', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/billing/subscription', '/v1/billing/upgrade/preview', '/v1/billing/upgrade']),
    );
    const parameters = document.paths['/v1/billing/upgrade/preview'].get.parameters as {
      name: string;
      in: string;
      required: boolean;
    }[];
    const query = parameters.filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['newPlan', true],
      ['newSeats', true],
      ['newCycle', true],
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'UpgradePreview',
        'UpgradePreviewResponse',
        'MailSubscription',
        'MailSubscriptionResponse',
      ]),
    );
  });
});
