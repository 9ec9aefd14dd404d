import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { creditBalanceReasons } from '../enums.js';
import { createdAt, isOneOf } from './columns.js';
import { organizations } from './organizations.js';
import { kes } from './wallets.js';

/**
 * The organization's credit balance, one row per movement, never updated or deleted: positive adds credit,
 * negative uses it. `(reason, reference)` is unique, so the same movement cannot happen twice. The balance
 * is the sum; mail_subscriptions.credit_balance caches it (CHECK >= 0), changed in the same transaction.
 * The database enforces it (migration 0008): UPDATE and DELETE are refused, and the cache must equal the sum
 * at every commit. An organization with credit history cannot be deleted (RESTRICT): it is retired instead.
 */
export const creditBalanceEntries = pgTable(
  'credit_balance_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** Whole KES, signed, never 0. */
    amount: kes('amount').notNull(),
    reason: text('reason', { enum: creditBalanceReasons }).notNull(),
    /** What caused it: `change:<id>` or `payment:<reference>`. */
    reference: text('reference').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('credit_balance_entries_reason_reference_unique').on(table.reason, table.reference),
    index('credit_balance_entries_organization_idx').on(table.organizationId, table.createdAt),
    check('credit_balance_entries_reason_check', isOneOf(table.reason, creditBalanceReasons)),
    check('credit_balance_entries_amount_check', sql`${table.amount} <> 0`),
  ],
);

export type CreditBalanceEntry = typeof creditBalanceEntries.$inferSelect;
