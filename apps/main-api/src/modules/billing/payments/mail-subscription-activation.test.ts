import { type DatabaseHandle, mailSubscriptions, type Payment } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveBalance } from '../../../../test/billing-fixtures.js';
import { insertOrganization } from '../../../../test/helpers.js';
import { activateMailSubscription, periodEndOf } from './mail-subscription-activation.js';
import { newPaymentReference } from './reference.js';

describe('periodEndOf', () => {
  it('adds a calendar month or year at the same time of day, clamping to the month end', () => {
    expect(periodEndOf(new Date('2024-01-31T10:15:00.000Z'), 'monthly')).toEqual(new Date('2024-02-29T10:15:00.000Z'));
    expect(periodEndOf(new Date('2024-03-15T23:59:59.123Z'), 'monthly')).toEqual(new Date('2024-04-15T23:59:59.123Z'));
    expect(periodEndOf(new Date('2024-02-29T00:00:00.000Z'), 'yearly')).toEqual(new Date('2025-02-28T00:00:00.000Z'));
  });
});

describe('activateMailSubscription', () => {
  let database: DatabaseHandle;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    organizationId = await insertOrganization(database.db);
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

  const subscriptionOf = async () =>
    (await database.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.organizationId, organizationId)))[0];

  it('starts a subscription at the moment of payment', async () => {
    const paidAt = new Date('2024-05-31T09:00:00.000Z');
    await database.db.transaction((tx) => activateMailSubscription(tx, paidPurchase(paidAt)));
    expect(await subscriptionOf()).toMatchObject({
      plan: 'core',
      seats: 10,
      billingCycle: 'monthly',
      status: 'active',
      currentPeriodStart: paidAt,
      currentPeriodEnd: new Date('2024-06-30T09:00:00.000Z'),
    });
  });

  it('replaces a subscription that no longer runs', async () => {
    await database.db.transaction((tx) => activateMailSubscription(tx, paidPurchase(new Date('2023-01-01T00:00:00Z'))));
    await database.db.update(mailSubscriptions).set({ status: 'expired' }).where(eq(mailSubscriptions.organizationId, organizationId));
    const paidAt = new Date('2024-05-01T00:00:00.000Z');
    await database.db.transaction((tx) =>
      activateMailSubscription(tx, paidPurchase(paidAt, { plan: 'scale', seats: 600, billingCycle: 'yearly' })),
    );
    expect(await subscriptionOf()).toMatchObject({
      plan: 'scale',
      seats: 600,
      billingCycle: 'yearly',
      status: 'active',
      currentPeriodEnd: new Date('2025-05-01T00:00:00.000Z'),
    });
  });

  it('credits the wallet with a second purchase paid while the first is active', async () => {
    const first = new Date('2024-05-01T00:00:00.000Z');
    await database.db.transaction((tx) => activateMailSubscription(tx, paidPurchase(first)));
    const second = paidPurchase(new Date('2024-05-02T00:00:00.000Z'), { plan: 'growth', amount: 1500 });
    await database.db.transaction((tx) => activateMailSubscription(tx, second));
    expect(await subscriptionOf()).toMatchObject({ plan: 'core', currentPeriodStart: first });
    expect(await liveBalance(database.db, organizationId)).toBe(1500);
  });
});
