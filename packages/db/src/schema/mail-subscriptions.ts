import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  billingCycles,
  mailPlans,
  mailSubscriptionChangeKinds,
  mailSubscriptionChangeStatuses,
  mailSubscriptionStatuses,
  renewalReminderKinds,
} from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { paymentMethods, payments } from './payments.js';
import { users } from './users.js';
import { kes } from './wallets.js';

/**
 * The mail (mailbox) subscription of an organization: at most one per organization. An organization
 * without an active or past_due subscription is on no plan.
 *
 * Periods are whole UTC days counted from `billing_anchor` (the purchase day, or the day of the last cycle
 * change): period n runs from addBillingPeriod(anchor, cycle, n) to addBillingPeriod(anchor, cycle, n + 1),
 * and `period_index` is n. `version` grows with every change of terms, period or status, so work decided on one
 * state (an upgrade being charged, a renewal) applies only if the row is still in that state; the cancel flag is
 * not such a change (a renewal charged before it was set still applies). `credit_balance` caches the
 * organization's credit (the sum of its credit_balance_entries), changed in the same transaction as them.
 */
export const mailSubscriptions = pgTable(
  'mail_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .unique()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: mailPlans }).notNull(),
    seats: integer('seats').notNull(),
    billingCycle: text('billing_cycle', { enum: billingCycles }).notNull(),
    status: text('status', { enum: mailSubscriptionStatuses }).notNull(),
    currentPeriodStart: timestamptz('current_period_start').notNull(),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    /** `YYYY-MM-DD`. Null only on rows written before periods had an anchor: read as the day of current_period_start. */
    billingAnchor: date('billing_anchor', { mode: 'string' }),
    periodIndex: integer('period_index').notNull().default(0),
    version: integer('version').notNull().default(0),
    creditBalance: kes('credit_balance').notNull().default(0),
    /** The saved card renewals charge: the one that paid last. */
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** When the renewal job next takes it up: the period end, or the next retry of a past_due one; null: never. */
    renewalDueAt: timestamptz('renewal_due_at'),
    /**
     * Asked to end at the period end (POST /v1/billing/subscription/cancel): the renewal job ends it as canceled,
     * charging nothing, instead of renewing it; resume clears it (docs/decisions.md#subscription-cancellation).
     */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** When the cancellation was asked for, kept once it has ended as canceled; null when none was. */
    canceledAt: timestamptz('canceled_at'),
    /** When it ended, as canceled or expired. */
    endedAt: timestamptz('ended_at'),
    /** When the renewal of the unpaid period first failed: its retries count from it. Set on past_due rows only. */
    pastDueSince: timestamptz('past_due_since'),
    /** Failed attempts at that renewal: 1 for the first failure, one more per failed retry (docs/decisions.md#renewal-retries). */
    renewalFailures: integer('renewal_failures').notNull().default(0),
    /**
     * A downgrade asked for during the period, which the renewal at its end applies (docs/decisions.md#scheduled-downgrades).
     * The plan, seats, cycle and time of the request are all set or all null.
     */
    scheduledPlan: text('scheduled_plan', { enum: mailPlans }),
    scheduledSeats: integer('scheduled_seats'),
    scheduledBillingCycle: text('scheduled_billing_cycle', { enum: billingCycles }),
    scheduledAt: timestamptz('scheduled_at'),
    scheduledByUserId: text('scheduled_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    // The renewal job's queue.
    index('mail_subscriptions_renewal_due_idx').on(table.renewalDueAt).where(sql`${table.renewalDueAt} is not null`),
    check('mail_subscriptions_plan_check', isOneOf(table.plan, mailPlans)),
    check('mail_subscriptions_billing_cycle_check', isOneOf(table.billingCycle, billingCycles)),
    check('mail_subscriptions_status_check', isOneOf(table.status, mailSubscriptionStatuses)),
    check('mail_subscriptions_seats_check', sql`${table.seats} between 1 and 1000000`),
    check('mail_subscriptions_period_check', sql`${table.currentPeriodEnd} > ${table.currentPeriodStart}`),
    check('mail_subscriptions_period_index_check', sql`${table.periodIndex} >= 0`),
    check('mail_subscriptions_version_check', sql`${table.version} >= 0`),
    check('mail_subscriptions_credit_balance_check', sql`${table.creditBalance} >= 0`),
    check(
      'mail_subscriptions_canceled_at_check',
      sql`not ${table.cancelAtPeriodEnd} or ${table.canceledAt} is not null`,
    ),
    check(
      'mail_subscriptions_past_due_since_check',
      sql`${table.pastDueSince} is null or ${table.status} = 'past_due'`,
    ),
    check('mail_subscriptions_renewal_failures_check', sql`${table.renewalFailures} >= 0`),
    check(
      'mail_subscriptions_scheduled_check',
      sql`(${table.scheduledPlan} is null) = (${table.scheduledSeats} is null) and (${table.scheduledPlan} is null) = (${table.scheduledBillingCycle} is null) and (${table.scheduledPlan} is null) = (${table.scheduledAt} is null)`,
    ),
    check('mail_subscriptions_scheduled_plan_check', isOneOf(table.scheduledPlan, mailPlans)),
    check('mail_subscriptions_scheduled_billing_cycle_check', isOneOf(table.scheduledBillingCycle, billingCycles)),
    check('mail_subscriptions_scheduled_seats_check', sql`${table.scheduledSeats} between 1 and 1000000`),
  ],
);

/**
 * The reminders of coming renewals sent to the organization's members, one row per renewal and kind
 * (docs/decisions.md#renewal-reminders): the unique index is what makes each reminder go out once, however many
 * instances run the renewal job. `renews_at` is the renewal announced (the period end).
 */
export const mailSubscriptionReminders = pgTable(
  'mail_subscription_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => mailSubscriptions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: renewalReminderKinds }).notNull(),
    renewsAt: timestamptz('renews_at').notNull(),
    /** When the job sent it, by its clock. */
    sentAt: timestamptz('sent_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('mail_subscription_reminders_once').on(table.subscriptionId, table.renewsAt, table.kind),
    check('mail_subscription_reminders_kind_check', isOneOf(table.kind, renewalReminderKinds)),
  ],
);

/**
 * Every change of a subscription's terms or period, with what it cost: an upgrade, a downgrade, a renewal.
 * A change that needs a card charge is first claimed (`charging`, at most one per subscription, enforced by
 * a partial unique index), charged outside any transaction, then applied only if the subscription's
 * `version` still equals `base_version`. `net` is the prorated price (negative for a downgrade),
 * `credit_applied` what the credit balance paid, `amount_due` what the card paid.
 */
export const mailSubscriptionChanges = pgTable(
  'mail_subscription_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => mailSubscriptions.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: mailSubscriptionChangeKinds }).notNull(),
    status: text('status', { enum: mailSubscriptionChangeStatuses }).notNull(),
    baseVersion: integer('base_version').notNull(),
    fromPlan: text('from_plan', { enum: mailPlans }).notNull(),
    fromSeats: integer('from_seats').notNull(),
    fromBillingCycle: text('from_billing_cycle', { enum: billingCycles }).notNull(),
    plan: text('plan', { enum: mailPlans }).notNull(),
    seats: integer('seats').notNull(),
    billingCycle: text('billing_cycle', { enum: billingCycles }).notNull(),
    /** The period after the change. */
    billingAnchor: date('billing_anchor', { mode: 'string' }).notNull(),
    periodIndex: integer('period_index').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    periodEnd: timestamptz('period_end').notNull(),
    net: kes('net').notNull(),
    creditApplied: kes('credit_applied').notNull(),
    amountDue: kes('amount_due').notNull(),
    /** The card charge, when amount_due > 0. */
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    requestedByUserId: text('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamptz('completed_at'),
  },
  (table) => [
    uniqueIndex('mail_subscription_changes_one_charging')
      .on(table.subscriptionId)
      .where(sql`${table.status} = 'charging'`),
    uniqueIndex('mail_subscription_changes_payment_unique').on(table.paymentId),
    index('mail_subscription_changes_subscription_idx').on(table.subscriptionId, table.createdAt),
    check('mail_subscription_changes_kind_check', isOneOf(table.kind, mailSubscriptionChangeKinds)),
    check('mail_subscription_changes_status_check', isOneOf(table.status, mailSubscriptionChangeStatuses)),
    check('mail_subscription_changes_from_plan_check', isOneOf(table.fromPlan, mailPlans)),
    check('mail_subscription_changes_plan_check', isOneOf(table.plan, mailPlans)),
    check('mail_subscription_changes_from_billing_cycle_check', isOneOf(table.fromBillingCycle, billingCycles)),
    check('mail_subscription_changes_billing_cycle_check', isOneOf(table.billingCycle, billingCycles)),
    check(
      'mail_subscription_changes_seats_check',
      sql`${table.seats} between 1 and 1000000 and ${table.fromSeats} between 1 and 1000000`,
    ),
    check(
      'mail_subscription_changes_period_check',
      sql`${table.periodEnd} > ${table.periodStart} and ${table.periodIndex} >= 0`,
    ),
    check(
      'mail_subscription_changes_amounts_check',
      sql`${table.creditApplied} >= 0 and ${table.amountDue} >= 0 and ${table.amountDue} + ${table.creditApplied} = greatest(${table.net}, 0)`,
    ),
    check(
      'mail_subscription_changes_completed_at_check',
      sql`(${table.status} = 'charging') = (${table.completedAt} is null)`,
    ),
  ],
);

export type MailSubscription = typeof mailSubscriptions.$inferSelect;
export type NewMailSubscription = typeof mailSubscriptions.$inferInsert;
export type MailSubscriptionChange = typeof mailSubscriptionChanges.$inferSelect;
export type NewMailSubscriptionChange = typeof mailSubscriptionChanges.$inferInsert;
