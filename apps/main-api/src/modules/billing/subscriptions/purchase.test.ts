import { randomUUID } from 'node:crypto';
import { type DatabaseHandle, mailSubscriptions, type Payment } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveBalance } from '../../../../test/billing-fixtures.js';
import { insertOrganization, insertUser } from '../../../../test/helpers.js';
import { creditBalanceOf, insertSavedCard, titlesNotified } from '../../../../test/subscription-fixtures.js';
import { newPaymentReference } from '../payments/reference.js';
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
  });

  it('replaces a subscription that no longer runs, keeping its credit balance', async () => {
    await activate(paidPurchase(new Date('2023-01-01T00:00:00Z')));
    await activate(paidPurchase(new Date('2023-01-15T00:00:00Z'), { amount: 700 }));
    expect(await creditBalanceOf(database.db, organizationId)).toBe(700);
    await database.db.update(mailSubscriptions).set({ status: 'expired' }).where(eq(mailSubscriptions.organizationId, organizationId));

    await activate(paidPurchase(new Date('2024-05-01T10:00:00.000Z'), { plan: 'scale', seats: 600, billingCycle: 'yearly' }));
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
    expect(await titlesNotified(database.db, member)).toEqual(['Mail subscription started', 'Payment added to your credit']);
  });

  it('remembers the card that paid as the card renewals charge', async () => {
    const card = await insertSavedCard(database.db, organizationId);
    await activate(paidPurchase(new Date('2024-05-01T00:00:00.000Z'), { paymentMethodId: card }));
    expect((await subscriptionOf())?.paymentMethodId).toBe(card);
  });
});
