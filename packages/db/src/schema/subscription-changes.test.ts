import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.js';
import { createTestDatabase } from '../testing.js';
import {
  creditBalanceEntries,
  mailSubscriptionChanges,
  mailSubscriptionReminders,
  mailSubscriptions,
  organizations,
  payments,
} from './index.js';

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work;
  } catch (error) {
    return ((error as { cause?: unknown }).cause ?? error) as { code?: string; message: string };
  }
  throw new Error('Expected the statement to fail');
}

async function expectViolation(work: Promise<unknown>, code: string, constraint: string): Promise<void> {
  const error = await databaseError(work);
  expect(error.code).toBe(code);
  expect(error.message).toContain(constraint);
}

describe('subscription changes, credit balances and subscription payments', () => {
  let handle: DatabaseHandle;
  let subscriptionId: string;
  const acme = '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e11';

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate mail_subscriptions, credit_balance_entries, payments, organizations cascade`);
    await handle.db.insert(organizations).values({ id: acme, name: 'Acme' });
    const [subscription] = await handle.db
      .insert(mailSubscriptions)
      .values({
        organizationId: acme,
        plan: 'core',
        seats: 10,
        billingCycle: 'monthly',
        status: 'active',
        currentPeriodStart: new Date('2024-01-01T00:00:00Z'),
        currentPeriodEnd: new Date('2024-02-01T00:00:00Z'),
      })
      .returning();
    subscriptionId = subscription!.id;
  });

  const change = (values: Partial<typeof mailSubscriptionChanges.$inferInsert> = {}) =>
    handle.db.insert(mailSubscriptionChanges).values({
      subscriptionId,
      organizationId: acme,
      kind: 'upgrade',
      status: 'charging',
      baseVersion: 1,
      fromPlan: 'core',
      fromSeats: 10,
      fromBillingCycle: 'monthly',
      plan: 'growth',
      seats: 25,
      billingCycle: 'monthly',
      billingAnchor: '2024-01-01',
      periodIndex: 0,
      periodStart: new Date('2024-01-01T00:00:00Z'),
      periodEnd: new Date('2024-02-01T00:00:00Z'),
      net: 1331,
      creditApplied: 331,
      amountDue: 1000,
      ...values,
    });

  it('allows one change being charged per subscription', async () => {
    await change();
    await expectViolation(change(), '23505', 'mail_subscription_changes_one_charging');
    await change({ status: 'failed', completedAt: new Date() });
  });

  it('keeps the amounts consistent: card plus credit pays a positive net, nothing is paid for a negative one', async () => {
    await expectViolation(change({ amountDue: 1001 }), '23514', 'mail_subscription_changes_amounts_check');
    await expectViolation(
      change({ net: -500, creditApplied: 0, amountDue: 1 }),
      '23514',
      'mail_subscription_changes_amounts_check',
    );
    await change({ net: -500, creditApplied: 0, amountDue: 0, status: 'applied', completedAt: new Date() });
    await expectViolation(change({ status: 'applied' }), '23514', 'mail_subscription_changes_completed_at_check');
  });

  it('never lets the cached credit balance go below zero', async () => {
    await expectViolation(
      handle.db.update(mailSubscriptions).set({ creditBalance: -1 }),
      '23514',
      'mail_subscriptions_credit_balance_check',
    );
  });

  it('records a credit movement once per reason and reference, and never a zero one', async () => {
    // A movement and the cached balance change together (the cache is checked against the entries at commit).
    const move = (values: Partial<typeof creditBalanceEntries.$inferInsert> = {}) =>
      handle.db.transaction(async (tx) => {
        const entry = {
          organizationId: acme,
          amount: 500,
          reason: 'downgrade' as const,
          reference: 'change:1',
          ...values,
        };
        await tx.insert(creditBalanceEntries).values(entry);
        await tx
          .update(mailSubscriptions)
          .set({ creditBalance: sql`${mailSubscriptions.creditBalance} + ${entry.amount}` });
      });
    await move();
    await expectViolation(move(), '23505', 'credit_balance_entries_reason_reference_unique');
    await move({ reason: 'upgrade', amount: -500 });
    await expectViolation(move({ reference: 'change:2', amount: 0 }), '23514', 'credit_balance_entries_amount_check');
  });

  it('requires the subscription terms on every subscription payment, and none on a top-up', async () => {
    const payment = (values: Partial<typeof payments.$inferInsert>) =>
      handle.db.insert(payments).values({
        reference: `PAY-${crypto.randomUUID()}`,
        organizationId: acme,
        method: 'saved_method',
        channel: 'card',
        purpose: 'mail_subscription_renewal',
        provider: 'sandbox',
        amount: 1000,
        nextCheckAt: new Date(),
        ...values,
      });
    await expectViolation(payment({}), '23514', 'payments_subscription_terms_check');
    await payment({ plan: 'core', seats: 10, billingCycle: 'monthly' });
    await payment({ purpose: 'mail_subscription_change', plan: 'growth', seats: 25, billingCycle: 'yearly' });
    await expectViolation(
      payment({ purpose: 'wallet_topup', plan: 'core', seats: 10, billingCycle: 'monthly' }),
      '23514',
      'payments_subscription_terms_check',
    );
  });

  // Migration 0021 (docs/decisions.md#subscription-cancellation, #renewal-retries, #scheduled-downgrades,
  // #renewal-reminders).
  const update = (values: Partial<typeof mailSubscriptions.$inferInsert>) =>
    handle.db.update(mailSubscriptions).set(values).where(eq(mailSubscriptions.id, subscriptionId));

  it('keeps the lifecycle columns consistent: a cancel has its time, past_due_since only while past_due', async () => {
    await expectViolation(update({ cancelAtPeriodEnd: true }), '23514', 'mail_subscriptions_canceled_at_check');
    await update({ cancelAtPeriodEnd: true, canceledAt: new Date() });
    await expectViolation(update({ pastDueSince: new Date() }), '23514', 'mail_subscriptions_past_due_since_check');
    await update({ status: 'past_due', pastDueSince: new Date(), renewalFailures: 1 });
    await expectViolation(update({ renewalFailures: -1 }), '23514', 'mail_subscriptions_renewal_failures_check');
  });

  it('keeps a scheduled change whole and within the price list', async () => {
    await expectViolation(update({ scheduledPlan: 'growth' }), '23514', 'mail_subscriptions_scheduled_check');
    const whole = {
      scheduledPlan: 'growth',
      scheduledSeats: 5,
      scheduledBillingCycle: 'yearly',
      scheduledAt: new Date(),
    } as const;
    await update(whole);
    await expectViolation(update({ ...whole, scheduledSeats: 0 }), '23514', 'mail_subscriptions_scheduled_seats_check');
    await expectViolation(
      handle.db.execute(sql`update mail_subscriptions set scheduled_plan = 'gold' where id = ${subscriptionId}`),
      '23514',
      'mail_subscriptions_scheduled_plan_check',
    );
  });

  it('records each reminder of a renewal once', async () => {
    const reminder = {
      subscriptionId,
      kind: '7_days',
      renewsAt: new Date('2024-02-01T00:00:00Z'),
      sentAt: new Date(),
    } as const;
    await handle.db.insert(mailSubscriptionReminders).values(reminder);
    await expectViolation(
      handle.db.insert(mailSubscriptionReminders).values(reminder),
      '23505',
      'mail_subscription_reminders_once',
    );
    await handle.db.insert(mailSubscriptionReminders).values({ ...reminder, kind: '1_day' });
    await handle.db
      .insert(mailSubscriptionReminders)
      .values({ ...reminder, renewsAt: new Date('2024-03-01T00:00:00Z') });
  });
});
