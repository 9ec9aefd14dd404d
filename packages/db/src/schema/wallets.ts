import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments, ledgerAccounts, ledgerTransactionKinds } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';

/** Whole KES as a 64-bit integer, read as a JavaScript number (exact up to 2^53). */
export function kes(name: string) {
  return bigint(name, { mode: 'number' });
}

/**
 * An organization's prepaid wallet, one per environment. The balances are a cache of the ledger kept in
 * the same transaction as every entry; the CHECKs make overdrawing impossible even under concurrency.
 */
export const wallets = pgTable(
  'wallets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // Kept apart per environment, like the API keys that spend from it.
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    availableBalance: kes('available_balance').notNull().default(0),
    heldBalance: kes('held_balance').notNull().default(0),
    /**
     * Whole KES: a hold that takes the available balance from at or above it to below it alerts the members and
     * sends `wallet.balance_low`, once (docs/decisions.md#low-balance-alerts). Null: no alerts.
     */
    lowBalanceThreshold: kes('low_balance_threshold'),
    /** When the current low-balance alert was sent; null while the next crossing would alert. */
    lowBalanceAlertedAt: timestamptz('low_balance_alerted_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    unique('wallets_organization_environment_unique').on(table.organizationId, table.environment),
    check('wallets_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check('wallets_available_balance_check', sql`${table.availableBalance} >= 0`),
    check('wallets_held_balance_check', sql`${table.heldBalance} >= 0`),
    check('wallets_low_balance_threshold_check', sql`${table.lowBalanceThreshold} >= 0`),
  ],
);

/**
 * One movement of money: a top-up, a hold, its capture or its release. `(kind, reference)` is unique, so
 * the same hold cannot be taken, captured or released twice whatever races happen above it, and a reference has at
 * most one capture or release, so no hold is both captured and released (migration 0022). Append-only:
 * triggers (migration 0006) refuse UPDATE and DELETE here and on the entries, and check at commit that each
 * transaction's entries balance; the restrict keys keep a wallet with history from being deleted.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ledgerTransactionKinds }).notNull(),
    amount: kes('amount').notNull(),
    /** What caused it, e.g. `verification_session:<id>` or `payment:<reference>`. */
    reference: text('reference').notNull(),
    description: text('description'),
    /**
     * The wallet's balances right after this movement, recorded under the wallet's lock (migration 0016 filled
     * them in for older rows from their entries; docs/decisions.md#balance-after-each-movement).
     */
    availableAfter: kes('available_after').notNull(),
    heldAfter: kes('held_after').notNull(),
    /** Set by the ledger to the time it wrote the row under the wallet's lock, so it orders the wallet's movements. */
    createdAt: createdAt(),
  },
  (table) => [
    unique('ledger_transactions_kind_reference_unique').on(table.kind, table.reference),
    // The ledger writes a movement in one statement, which checks for an earlier resolution in its own snapshot;
    // this index refuses the second of two that race (docs/decisions.md#statements-per-request).
    uniqueIndex('ledger_transactions_one_resolution_per_hold')
      .on(table.reference)
      .where(sql`${table.kind} in ('capture', 'release')`),
    index('ledger_transactions_wallet_id_idx').on(table.walletId, table.createdAt),
    check('ledger_transactions_kind_check', isOneOf(table.kind, ledgerTransactionKinds)),
    check('ledger_transactions_amount_check', sql`${table.amount} > 0`),
  ],
);

/**
 * Double entry: every transaction has entries that sum to zero. Wallet accounts (`available`, `held`)
 * carry the wallet id; `funding` and `revenue` are the platform's side.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id, { onDelete: 'restrict' }),
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'restrict' }),
    account: text('account', { enum: ledgerAccounts }).notNull(),
    /** Signed: positive adds to the account, negative takes from it. */
    amount: kes('amount').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('ledger_entries_wallet_account_idx').on(table.walletId, table.account),
    index('ledger_entries_transaction_id_idx').on(table.transactionId),
    check('ledger_entries_account_check', isOneOf(table.account, ledgerAccounts)),
    check('ledger_entries_amount_check', sql`${table.amount} <> 0`),
  ],
);

export type Wallet = typeof wallets.$inferSelect;
export type LedgerTransaction = typeof ledgerTransactions.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;
