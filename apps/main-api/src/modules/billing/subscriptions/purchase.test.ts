import { randomUUID } from 'node:crypto';
import type { DatabaseHandle, Payment } from '@platform/db';
import { mailSubscriptions, notifications, payments } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, liveBalance, PAYER_ID, startBillingApp } from '../../../../test/billing-fixtures.js';
import { insertOrganization, insertUser } from '../../../../test/helpers.js';
import {
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionOf as storedSubscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';
import { newPaymentReference } from '../payments/reference.js';
import { hasActiveSubscription } from './index.js';
import { activatePurchasedSubscription } from './purchase.js';

describe('activatePurchasedSubscription (a paid mail subscription purchase)', () => {
  let database: DatabaseHandle;
  let organizationId: string;
  let member: string;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    member = `user_${randomUUID()}`;
    await insertUser(database.db, { id: member });
    organizationId = await insertOrganization(database.db, { members: [{ userId: member }] });
  });

  function paidPurchase(completedAt: Date, terms: Partial<Payment> = {}): Payment {
    return {
      id: '00000000-0000-4000-8000-000000000000',
      reference: newPaymentReference(),
      organizationId,
      userId: null,
      method: 'card',
      channel: 'card',
      purpose: 'mail_subscription',
      provider: 'sandbox',
      status: 'succeeded',
      amount: 1000,
      currency: 'KES',
      phone: null,
      paymentMethodId: null,
      plan: 'core',
      seats: 10,
      billingCycle: 'monthly',
      providerReference: null,
      mpesaReceiptNumber: null,
      accountReference: null,
      checkoutUrl: null,
      failureReason: null,
      nextCheckAt: completedAt,
      createdAt: completedAt,
      updatedAt: completedAt,
      completedAt,
      ...terms,
    };
  }

  const activate = (payment: Payment) => database.db.transaction((tx) => activatePurchasedSubscription(tx, payment));
  const subscriptionOf = async () =>
    (await database.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.organizationId, organizationId)))[0];

  it('starts the subscription on the UTC day of payment, anchored there, renewing a calendar month later', async () => {
    await activate(paidPurchase(new Date('2024-01-31T21:30:00.000Z')));
    expect(await subscriptionOf()).toMatchObject({
      plan: 'core',
      seats: 10,
      billingCycle: 'monthly',
      status: 'active',
      billingAnchor: '2024-01-31',
      periodIndex: 0,
      currentPeriodStart: new Date('2024-01-31T00:00:00.000Z'),
      currentPeriodEnd: new Date('2024-02-29T00:00:00.000Z'),
      renewalDueAt: new Date('2024-02-29T00:00:00.000Z'),
      creditBalance: 0,
    });
    expect(await titlesNotified(database.db, member)).toEqual(['Mail subscription started']);
    // It opens the dashboard's Billing page.
    const links = await database.db
      .select({ actionUrl: notifications.actionUrl })
      .from(notifications)
      .where(eq(notifications.userId, member));
    expect(links).toEqual([{ actionUrl: '/dashboard/billing' }]);
  });

  it('replaces a subscription that no longer runs, keeping its credit balance', async () => {
    await activate(paidPurchase(new Date('2023-01-01T00:00:00Z')));
    await activate(paidPurchase(new Date('2023-01-15T00:00:00Z'), { amount: 700 }));
    expect(await creditBalanceOf(database.db, organizationId)).toBe(700);
    await database.db
      .update(mailSubscriptions)
      .set({ status: 'expired' })
      .where(eq(mailSubscriptions.organizationId, organizationId));

    await activate(
      paidPurchase(new Date('2024-05-01T10:00:00.000Z'), { plan: 'scale', seats: 600, billingCycle: 'yearly' }),
    );
    expect(await subscriptionOf()).toMatchObject({
      plan: 'scale',
      seats: 600,
      billingCycle: 'yearly',
      status: 'active',
      billingAnchor: '2024-05-01',
      currentPeriodEnd: new Date('2025-05-01T00:00:00.000Z'),
      creditBalance: 700,
    });
  });

  it('puts a second purchase paid while the first is active on the credit balance, not the wallet', async () => {
    const first = new Date('2024-05-01T00:00:00.000Z');
    await activate(paidPurchase(first));
    const second = paidPurchase(new Date('2024-05-02T00:00:00.000Z'), { plan: 'growth', amount: 1500 });
    await activate(second);
    await activate(second);

    expect(await subscriptionOf()).toMatchObject({ plan: 'core', currentPeriodStart: first });
    expect(await creditBalanceOf(database.db, organizationId)).toBe(1500);
    expect(await liveBalance(database.db, organizationId)).toBe(0);
    expect(await titlesNotified(database.db, member)).toEqual([
      'Mail subscription started',
      'Payment added to your credit',
    ]);
  });

  it('remembers the card that paid as the card renewals charge', async () => {
    const card = await insertSavedCard(database.db, organizationId);
    await activate(paidPurchase(new Date('2024-05-01T00:00:00.000Z'), { paymentMethodId: card }));
    expect((await subscriptionOf())?.paymentMethodId).toBe(card);
  });
});

describe('hasActiveSubscription (whether the organization may start a purchase)', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;

  it('is true while an active subscription is inside its period, and false without one', async () => {
    const organizationId = await insertOrganization(database.db);
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-01-17T10:00:00.000Z'))).toBe(false);
    await insertSubscription(database.db, organizationId, core10);
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-01-17T10:00:00.000Z'))).toBe(true);
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-01-31T23:59:59.999Z'))).toBe(true);
    // Its period is over: it waits for the renewal job, and a purchase may replace it.
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-02-01T00:00:00.000Z'))).toBe(false);
  });

  it.each(['past_due', 'canceled', 'expired'] as const)('is false for a %s subscription', async (status) => {
    const organizationId = await insertOrganization(database.db);
    await insertSubscription(database.db, organizationId, { ...core10, status });
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-01-17T10:00:00.000Z'))).toBe(false);
  });

  it("answers for the organization asked about, not another's", async () => {
    const organizationId = await insertOrganization(database.db);
    const otherOrganizationId = await insertOrganization(database.db);
    await insertSubscription(database.db, otherOrganizationId, core10);
    expect(await hasActiveSubscription(database.db, organizationId, new Date('2024-01-17T10:00:00.000Z'))).toBe(false);
  });
});

describe('POST /v1/billing/pay buying a mail subscription when the last one was canceled', () => {
  let t: BillingTestApp;

  beforeAll(async () => {
    t = await startBillingApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await clearBilling(t.db);
  });

  const buy = async (paymentMethodId: string, terms: { plan: string; seats: number; billingCycle: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: {
        method: 'saved_method',
        paymentMethodId,
        amount: 0,
        metadata: { type: 'mail_subscription', ...terms },
      },
    });

  it('replaces the canceled subscription in place, from the day of payment, keeping its credit', async () => {
    // There is no cancel endpoint yet: the row is written canceled, its period not yet over.
    const canceled = await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 10,
      cycle: 'monthly',
      anchor: '2024-01-01',
      status: 'canceled',
      credit: 500,
    });
    const card = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

    // A canceled subscription cannot be changed, only bought again.
    const preview = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/upgrade/preview?newPlan=growth&newSeats=25&newCycle=yearly',
      headers: await t.headers(),
    });
    expect(preview.statusCode).toBe(409);

    const response = await buy(card, { plan: 'growth', seats: 25, billingCycle: 'yearly' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true });
    // growth, 25 seats (tier 1-50: 150 a seat a month), yearly = 10 months: 37,500, paid in full by the card.
    const [payment] = await t.db.select().from(payments);
    expect(payment).toMatchObject({
      purpose: 'mail_subscription',
      status: 'succeeded',
      amount: 37_500,
      paymentMethodId: card,
    });

    expect(await storedSubscriptionOf(t.db, t.organizationId)).toMatchObject({
      id: canceled.id,
      plan: 'growth',
      seats: 25,
      billingCycle: 'yearly',
      status: 'active',
      billingAnchor: '2024-01-17',
      periodIndex: 0,
      currentPeriodStart: new Date('2024-01-17T00:00:00.000Z'),
      currentPeriodEnd: new Date('2025-01-17T00:00:00.000Z'),
      renewalDueAt: new Date('2025-01-17T00:00:00.000Z'),
      paymentMethodId: card,
    });
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(500);
    expect(await titlesNotified(t.db, PAYER_ID)).toContain('Mail subscription started');

    // Now it is active again: another purchase is refused, and it can be changed.
    expect((await buy(card, { plan: 'scale', seats: 25, billingCycle: 'yearly' })).statusCode).toBe(409);
    const changed = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/upgrade/preview?newPlan=scale&newSeats=25&newCycle=yearly',
      headers: await t.headers(),
    });
    expect(changed.statusCode).toBe(200);
  });
});
