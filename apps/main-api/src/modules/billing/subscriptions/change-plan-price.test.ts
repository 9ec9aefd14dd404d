import { prorate, quote } from '@platform/pricing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID } from '../../../../test/billing-fixtures.js';
import {
  changeBody,
  previewChange,
  requestChange,
  type Terms,
  useSubscriptionApp,
} from '../../../../test/subscription-app.js';
import {
  changesOf,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';
import { billingPeriod } from './periods.js';

// What a change costs (change-plan-price.ts): the preview and the upgrade made the same day agree, through the API,
// paid with a saved sandbox card (always approved); a downgrade waits for the period end.

const suite = useSubscriptionApp({ clearIdempotencyRecords: true });
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

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

    const previewed = await previewChange(t, next);
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
    const response = await requestChange(t, changeBody(next, cardId));
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

    const previewed = await previewChange(t, next);
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
    const response = await requestChange(t, changeBody(next));
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
