import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import {
  billingCycles,
  MPESA_RECEIPT_NUMBER_PATTERN,
  mailPlans,
  paymentChannels,
  paymentProviders,
  paymentPurposes,
} from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { KRA_PIN_PATTERN, organizations } from './organizations.js';
import { payments } from './payments.js';
import { kes } from './wallets.js';

/**
 * The numbers of billing documents, one row per series (`receipt`): the last number given. A number is taken by
 * an UPDATE of the row in the transaction that issues the document, so the row stays locked until it commits and a
 * transaction that rolls back gives its number back: the numbers have no gap (a SEQUENCE would leave one).
 */
export const documentNumberSeries = pgTable(
  'document_number_series',
  {
    series: text('series').primaryKey(),
    lastNumber: integer('last_number').notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('document_number_series_last_number_check', sql`${table.lastNumber} > 0`)],
);

/**
 * The particulars every billing document copies when it is issued, so that it reads the same whatever changes later:
 * its gapless number (`sequence`, and `number`: a prefix and the sequence on six digits or more), the payment it is of
 * (one document of a kind per payment), the seller's and the buyer's names and PINs, what is bought, and the amount
 * with the VAT in it. Receipts and invoices add their own columns to these.
 */
function documentParticulars() {
  return {
    id: uuid('id').primaryKey().defaultRandom(),
    sequence: integer('sequence').notNull().unique(),
    number: text('number').notNull().unique(),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id, { onDelete: 'restrict' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    issuedAt: timestamptz('issued_at').notNull(),
    sellerName: text('seller_name').notNull(),
    sellerAddress: text('seller_address').notNull(),
    sellerKraPin: text('seller_kra_pin').notNull(),
    buyerName: text('buyer_name').notNull(),
    buyerKraPin: text('buyer_kra_pin'),
    purpose: text('purpose', { enum: paymentPurposes }).notNull(),
    /** The mail subscription terms bought (subscription purposes only). */
    plan: text('plan', { enum: mailPlans }),
    seats: integer('seats'),
    billingCycle: text('billing_cycle', { enum: billingCycles }),
    /** VAT included: net + vat = total, whole KES. */
    total: kes('total').notNull(),
    net: kes('net').notNull(),
    vat: kes('vat').notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    paymentReference: text('payment_reference').notNull(),
    createdAt: createdAt(),
  };
}

type ParticularColumns = Record<keyof ReturnType<typeof documentParticulars>, AnyPgColumn>;

/** The CHECKs of the particulars, named after `tableName`; `numberPattern` is the form of its numbers. */
function particularChecks(tableName: string, table: ParticularColumns, numberPattern: string) {
  return [
    check(`${tableName}_sequence_check`, sql`${table.sequence} > 0`),
    check(
      `${tableName}_number_check`,
      sql`${table.number} ~ ${sql.raw(`'${numberPattern}'`)} and substr(${table.number}, 5)::bigint = ${table.sequence}`,
    ),
    check(`${tableName}_amounts_check`, sql`${table.total} > 0 and ${table.net} >= 0 and ${table.vat} >= 0`),
    check(`${tableName}_vat_included_check`, sql`${table.net} + ${table.vat} = ${table.total}`),
    check(`${tableName}_vat_rate_check`, sql`${table.vatRatePercent} between 0 and 100`),
    check(`${tableName}_seller_kra_pin_check`, sql`${table.sellerKraPin} ~ ${sql.raw(`'${KRA_PIN_PATTERN}'`)}`),
    check(
      `${tableName}_buyer_kra_pin_check`,
      sql`${table.buyerKraPin} is null or ${table.buyerKraPin} ~ ${sql.raw(`'${KRA_PIN_PATTERN}'`)}`,
    ),
    check(`${tableName}_purpose_check`, isOneOf(table.purpose, paymentPurposes)),
    check(`${tableName}_plan_check`, sql`${table.plan} is null or ${isOneOf(table.plan, mailPlans)}`),
    check(
      `${tableName}_billing_cycle_check`,
      sql`${table.billingCycle} is null or ${isOneOf(table.billingCycle, billingCycles)}`,
    ),
    check(
      `${tableName}_terms_check`,
      sql`(${table.plan} is null) = (${table.seats} is null) and (${table.plan} is null) = (${table.billingCycle} is null)`,
    ),
  ];
}

/**
 * The receipt of a successful payment, as issued: its particulars (`RCT-000001`), the period paid for and how it was
 * paid.
 */
export const receipts = pgTable(
  'receipts',
  {
    ...documentParticulars(),
    /** The period paid for; null for a top-up, and for a payment that went to the credit balance instead. */
    periodStart: timestamptz('period_start'),
    periodEnd: timestamptz('period_end'),
    /** What the payment went to when it bought no period (a subscription was already active, say). */
    note: text('note'),
    channel: text('channel', { enum: paymentChannels }).notNull(),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    providerReference: text('provider_reference'),
    /** The payment's M-Pesa receipt number when it was issued (null for cards, and for receipts issued before it). */
    mpesaReceiptNumber: text('mpesa_receipt_number'),
    paidAt: timestamptz('paid_at').notNull(),
  },
  (table) => [
    ...particularChecks('receipts', table, '^RCT-[0-9]{6,}$'),
    check(
      'receipts_period_check',
      sql`(${table.periodStart} is null) = (${table.periodEnd} is null) and (${table.periodEnd} is null or ${table.periodEnd} > ${table.periodStart})`,
    ),
    check('receipts_channel_check', isOneOf(table.channel, paymentChannels)),
    check('receipts_provider_check', isOneOf(table.provider, paymentProviders)),
    check(
      'receipts_mpesa_receipt_number_check',
      sql`${table.mpesaReceiptNumber} is null or ${table.mpesaReceiptNumber} ~ ${sql.raw(`'${MPESA_RECEIPT_NUMBER_PATTERN}'`)}`,
    ),
  ],
);

/** The reference a payer writes on a bank transfer: `BT` and 8 characters of Crockford's base 32 (no I, L, O, U). */
export const TRANSFER_REFERENCE_PATTERN = '^BT[0-9A-HJKMNP-TV-Z]{8}$';

/**
 * The invoice of a payment made by bank transfer, issued with the pending payment: its particulars (`INV-000001`,
 * from its own gapless series), the bank account to pay into and the reference to write on the transfer; whether it
 * was paid or lapsed is its payment's status. Payable by `due_at` (14 days); the payment expires unconfirmed at
 * `expires_at` (30 days).
 */
export const invoices = pgTable(
  'invoices',
  {
    ...documentParticulars(),
    dueAt: timestamptz('due_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** What the payer writes on the transfer. */
    transferReference: text('transfer_reference').notNull(),
    bankName: text('bank_name').notNull(),
    bankAccountName: text('bank_account_name').notNull(),
    bankAccountNumber: text('bank_account_number').notNull(),
    bankBranch: text('bank_branch').notNull(),
    /** Issued with the sandbox's bank details (no real account): the invoice says so. */
    sandbox: boolean('sandbox').notNull(),
  },
  (table) => [
    ...particularChecks('invoices', table, '^INV-[0-9]{6,}$'),
    check('invoices_dates_check', sql`${table.dueAt} > ${table.issuedAt} and ${table.expiresAt} >= ${table.dueAt}`),
    check(
      'invoices_transfer_reference_check',
      sql`${table.transferReference} ~ ${sql.raw(`'${TRANSFER_REFERENCE_PATTERN}'`)}`,
    ),
  ],
);

export type DocumentNumberSeries = typeof documentNumberSeries.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
export type Receipt = typeof receipts.$inferSelect;
export type NewReceipt = typeof receipts.$inferInsert;
