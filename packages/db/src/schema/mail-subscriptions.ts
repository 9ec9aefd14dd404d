import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { billingCycles, mailPlans, mailSubscriptionStatuses } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';

/**
 * The mail (mailbox) subscription of an organization: at most one per organization. An organization
 * without an active or past_due subscription is on no plan.
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
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    check('mail_subscriptions_plan_check', isOneOf(table.plan, mailPlans)),
    check('mail_subscriptions_billing_cycle_check', isOneOf(table.billingCycle, billingCycles)),
    check('mail_subscriptions_status_check', isOneOf(table.status, mailSubscriptionStatuses)),
    check('mail_subscriptions_seats_check', sql`${table.seats} between 1 and 1000000`),
    check(
      'mail_subscriptions_period_check',
      sql`${table.currentPeriodEnd} > ${table.currentPeriodStart}`,
    ),
  ],
);

export type MailSubscription = typeof mailSubscriptions.$inferSelect;
export type NewMailSubscription = typeof mailSubscriptions.$inferInsert;
