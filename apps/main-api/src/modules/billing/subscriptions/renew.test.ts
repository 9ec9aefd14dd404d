import { quote } from '@platform/pricing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, notificationsOf, PAYER_ID } from '../../../../test/billing-fixtures.js';
import type { FakePaystack } from '../../../../test/fake-paystack.js';
import { useSubscriptionApp } from '../../../../test/subscription-app.js';
import {
  changesOf,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';

// The renewal job (renew.ts) with a moved clock, charging saved cards through a fake Paystack: renewals at the end of
// a period, from the credit balance first, and a scheduled downgrade applied then. Unpaid renewals and their retries
// are in renew-retries.test.ts.

const COLLEAGUE_ID = 'user_colleague';
const suite = useSubscriptionApp({ paystack: { approved: ['AUTH_good'] }, members: [[COLLEAGUE_ID, 'member']] });
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});

// Bought on 31 January: renews on 29 February (2024 is a leap year), then on 31 March, then 30 April.
const growth20 = { plan: 'growth', seats: 20, cycle: 'monthly', anchor: '2024-01-31' } as const;
const price = quote({ plan: 'growth', seats: 20, cycle: 'monthly' }).total;

async function goodCard() {
  return insertSavedCard(t.db, t.organizationId, { provider: 'paystack', authorizationCode: 'AUTH_good' });
}

const chargesBefore = () => paystack.charges().length;

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
