import { randomUUID } from 'node:crypto';
import type {
  BillingCycle,
  Database,
  MailPlan,
  MailSubscription,
  MailSubscriptionChange,
  MailSubscriptionStatus,
  PaymentProvider,
} from '@platform/db';
import {
  creditBalanceEntries,
  mailSubscriptionChanges,
  mailSubscriptions,
  notifications,
  paymentMethods,
  payments,
} from '@platform/db/schema';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { creditBalanceFromEntries } from '../src/modules/billing/subscriptions/credit-balance-repository.js';
import { billingPeriod } from '../src/modules/billing/subscriptions/periods.js';

export interface SubscriptionSetup {
  plan: MailPlan;
  seats: number;
  cycle: BillingCycle;
  /** `YYYY-MM-DD`: periods are counted from it. */
  anchor: string;
  /** Which period (from 0) is the current one. */
  periodIndex?: number;
  status?: MailSubscriptionStatus;
  /** Whole KES of credit, recorded as a credit entry too so the balance equals the entries. */
  credit?: number;
  paymentMethodId?: string | null;
}

/** Gives the organization a mail subscription in a known state, as if it had been bought and renewed. */
export async function insertSubscription(
  db: Database,
  organizationId: string,
  setup: SubscriptionSetup,
): Promise<MailSubscription> {
  const period = billingPeriod(setup.anchor, setup.cycle, setup.periodIndex ?? 0);
  const status = setup.status ?? 'active';
  // One transaction: the database checks at commit that the cached balance equals the entries' sum.
  return db.transaction(async (tx) => {
    const [subscription] = await tx
      .insert(mailSubscriptions)
      .values({
        organizationId,
        plan: setup.plan,
        seats: setup.seats,
        billingCycle: setup.cycle,
        status,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        billingAnchor: setup.anchor,
        periodIndex: period.index,
        renewalDueAt: status === 'active' || status === 'past_due' ? period.end : null,
        creditBalance: setup.credit ?? 0,
        paymentMethodId: setup.paymentMethodId ?? null,
      })
      .returning();
    if (subscription === undefined) throw new Error('Inserting the subscription returned no row');
    if ((setup.credit ?? 0) > 0) {
      await tx.insert(creditBalanceEntries).values({
        organizationId,
        amount: setup.credit ?? 0,
        reason: 'downgrade',
        reference: `change:${randomUUID()}`,
        description: 'Credit from an earlier downgrade',
      });
    }
    return subscription;
  });
}

/** A saved card of the organization that `provider` can charge. */
export async function insertSavedCard(
  db: Database,
  organizationId: string,
  options: { provider?: PaymentProvider; authorizationCode?: string; lastUsedAt?: Date } = {},
): Promise<string> {
  const [card] = await db
    .insert(paymentMethods)
    .values({
      organizationId,
      type: 'card',
      provider: options.provider ?? 'sandbox',
      fingerprint: `SIG_${randomUUID()}`,
      authorizationCode: options.authorizationCode ?? `AUTH_${randomUUID().slice(0, 8)}`,
      customerEmail: 'payer@example.com',
      brand: 'visa',
      last4: '4081',
      expMonth: 12,
      expYear: 2030,
      lastUsedAt: options.lastUsedAt ?? null,
    })
    .returning({ id: paymentMethods.id });
  if (card === undefined) throw new Error('Inserting the card returned no row');
  return card.id;
}

/** A saved M-Pesa number of the organization. */
export async function insertSavedNumber(db: Database, organizationId: string): Promise<string> {
  const [number] = await db
    .insert(paymentMethods)
    .values({
      organizationId,
      type: 'mobile_money',
      provider: 'sandbox',
      fingerprint: '254712345678',
      phone: '254712345678',
    })
    .returning({ id: paymentMethods.id });
  if (number === undefined) throw new Error('Inserting the number returned no row');
  return number.id;
}

export async function subscriptionOf(db: Database, organizationId: string): Promise<MailSubscription> {
  const [subscription] = await db
    .select()
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.organizationId, organizationId));
  if (subscription === undefined) throw new Error('The organization has no subscription');
  return subscription;
}

export async function changesOf(db: Database, organizationId: string): Promise<MailSubscriptionChange[]> {
  return db
    .select()
    .from(mailSubscriptionChanges)
    .where(eq(mailSubscriptionChanges.organizationId, organizationId))
    .orderBy(asc(mailSubscriptionChanges.createdAt), asc(mailSubscriptionChanges.id));
}

/** The organization's payments for subscription changes and renewals (card charges), oldest first. */
export async function subscriptionChargesOf(db: Database, organizationId: string) {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.organizationId, organizationId),
        inArray(payments.purpose, ['mail_subscription_change', 'mail_subscription_renewal']),
      ),
    )
    .orderBy(asc(payments.createdAt));
}

/** The cached credit balance, checked against the sum of the entries: they must always agree. */
export async function creditBalanceOf(db: Database, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ balance: mailSubscriptions.creditBalance })
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.organizationId, organizationId));
  const cached = row?.balance ?? 0;
  const summed = await creditBalanceFromEntries(db, organizationId);
  if (cached !== summed) throw new Error(`The cached credit balance ${cached} differs from its entries' sum ${summed}`);
  return cached;
}

/** The titles of a user's notifications, oldest first; those of one transaction (one time) by title. */
export async function titlesNotified(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ title: notifications.title })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt), asc(notifications.title));
  return rows.map((row) => row.title);
}

/**
 * Empties everything billing wrote, so each test starts from the organizations alone. TRUNCATE, because the
 * database refuses to DELETE credit movements and receipts (they are append-only).
 */
export async function clearBilling(db: Database): Promise<void> {
  await db.execute(
    sql`truncate receipts, invoices, bank_transfer_confirmations, mail_subscription_reminders, mail_subscription_changes, credit_balance_entries, mail_subscriptions, payment_events, payments, payment_methods, notifications`,
  );
}
