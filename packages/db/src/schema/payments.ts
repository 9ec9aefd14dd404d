import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  billingCycles,
  MPESA_RECEIPT_NUMBER_PATTERN,
  mailPlans,
  paymentChannels,
  paymentEventTypes,
  paymentMethodKinds,
  paymentProviders,
  paymentPurposes,
  paymentStatuses,
  savedMethodTypes,
  subscriptionPaymentPurposes,
  transferConfirmationOutcomes,
} from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';
import { kes } from './wallets.js';

/**
 * A card or M-Pesa number an organization can pay with again. Cards come from a provider's reusable
 * authorization (`authorization_code` is a secret: it is never returned by the API); numbers from a
 * successful M-Pesa payment. Removing one sets `deleted_at`; payments keep pointing at it.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: savedMethodTypes }).notNull(),
    /** The provider that can charge it (cards are bound to the provider that issued the authorization). */
    provider: text('provider', { enum: paymentProviders }).notNull(),
    /** What makes two saves the same method: the card's provider signature, or the phone number. */
    fingerprint: text('fingerprint').notNull(),
    authorizationCode: text('authorization_code'),
    /** The email the authorization belongs to; the provider requires it to charge the card again. */
    customerEmail: text('customer_email'),
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    bank: text('bank'),
    /** `254` + 9 digits. */
    phone: text('phone'),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
    deletedAt: timestamptz('deleted_at'),
  },
  (table) => [
    // One live entry per card or number; saving it again refreshes that entry.
    uniqueIndex('payment_methods_active_unique')
      .on(table.organizationId, table.type, table.fingerprint)
      .where(sql`${table.deletedAt} is null`),
    index('payment_methods_organization_idx').on(table.organizationId, table.createdAt.desc(), table.id.desc()),
    check('payment_methods_type_check', isOneOf(table.type, savedMethodTypes)),
    check('payment_methods_provider_check', isOneOf(table.provider, paymentProviders)),
    check(
      'payment_methods_details_check',
      sql`(${table.type} = 'card' and ${table.authorizationCode} is not null and ${table.last4} is not null)
        or (${table.type} = 'mobile_money' and ${table.phone} is not null)`,
    ),
    check('payment_methods_phone_check', sql`${table.phone} is null or ${table.phone} ~ '^254[0-9]{9}$'`),
  ],
);

/**
 * One payment: its amount in whole KES, what it pays for, how, and where it stands. `reference`
 * (`PAY-<uuid>`) is ours and is sent to the provider; `provider_reference` is the provider's handle on it
 * (Paystack: our reference; Daraja: the CheckoutRequestID). `next_check_at` is when the reconciliation job
 * next asks the provider about a payment that is still pending.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The user who started the payment; notified when it succeeds. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    method: text('method', { enum: paymentMethodKinds }).notNull(),
    channel: text('channel', { enum: paymentChannels }).notNull(),
    purpose: text('purpose', { enum: paymentPurposes }).notNull(),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    status: text('status', { enum: paymentStatuses }).notNull().default('pending'),
    amount: kes('amount').notNull(),
    currency: text('currency').notNull().default('KES'),
    /** The M-Pesa number prompted (`254` + 9 digits). */
    phone: text('phone'),
    /** The saved method charged, or the one this payment saved. */
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** The mail subscription terms paid for (purchases, changes and renewals). */
    plan: text('plan', { enum: mailPlans }),
    seats: integer('seats'),
    billingCycle: text('billing_cycle', { enum: billingCycles }),
    providerReference: text('provider_reference'),
    /**
     * The M-Pesa receipt number of a paid STK push (`QKT2XYZ8AB`: what Safaricom's SMS tells the payer), from Daraja's
     * success callback; set once, never changed.
     */
    mpesaReceiptNumber: text('mpesa_receipt_number'),
    /**
     * The short reference the payer sees (at most 12 characters): shown in the M-Pesa prompt, or written on a bank
     * transfer (`BT` + 8 characters, unique among bank transfers: it is how finance finds the payment).
     */
    accountReference: text('account_reference'),
    checkoutUrl: text('checkout_url'),
    failureReason: text('failure_reason'),
    nextCheckAt: timestamptz('next_check_at').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    completedAt: timestamptz('completed_at'),
  },
  (table) => [
    uniqueIndex('payments_provider_reference_unique').on(table.provider, table.providerReference),
    // The organization's payments newest first, in the order of their cursor (createdAt, id). NULLS FIRST is what a
    // plain `order by created_at desc, id desc` means, so the planner reads the index in order.
    index('payments_organization_idx').on(
      table.organizationId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The reconciliation job's queue: pending payments by when they are due for a check.
    index('payments_due_check_idx').on(table.nextCheckAt).where(sql`${table.status} = 'pending'`),
    index('payments_account_reference_idx').on(table.accountReference),
    // A bank transfer is found by the reference its payer wrote on it: one payment per reference.
    uniqueIndex('payments_bank_transfer_reference_unique')
      .on(table.accountReference)
      .where(sql`${table.channel} = 'bank_transfer'`),
    // Finance's list of bank transfers, newest first, in the order of its cursor.
    index('payments_bank_transfers_idx')
      .on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.channel} = 'bank_transfer'`),
    // Finance's list of the money to refund (retired organizations' payments), newest first, in its cursor's order.
    index('payments_refund_due_idx')
      .on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.status} = 'refund_due'`),
    check(
      'payments_reference_check',
      sql`${table.reference} ~ '^PAY-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'`,
    ),
    check('payments_method_check', isOneOf(table.method, paymentMethodKinds)),
    check('payments_channel_check', isOneOf(table.channel, paymentChannels)),
    check('payments_method_channel_check', sql`${table.method} = 'saved_method' or ${table.method} = ${table.channel}`),
    check('payments_purpose_check', isOneOf(table.purpose, paymentPurposes)),
    check('payments_provider_check', isOneOf(table.provider, paymentProviders)),
    check('payments_status_check', isOneOf(table.status, paymentStatuses)),
    check('payments_amount_check', sql`${table.amount} > 0`),
    check('payments_currency_check', sql`${table.currency} = 'KES'`),
    check('payments_phone_check', sql`${table.phone} is null or ${table.phone} ~ '^254[0-9]{9}$'`),
    check('payments_mobile_money_phone_check', sql`${table.channel} <> 'mobile_money' or ${table.phone} is not null`),
    check(
      'payments_bank_transfer_check',
      sql`(${table.channel} = 'bank_transfer') = (${table.provider} = 'bank_transfer') and (${table.channel} <> 'bank_transfer' or ${table.accountReference} is not null)`,
    ),
    check(
      'payments_subscription_terms_check',
      sql`(${isOneOf(table.purpose, subscriptionPaymentPurposes)}) = (${table.plan} is not null and ${table.seats} is not null and ${table.billingCycle} is not null)`,
    ),
    check('payments_plan_check', sql`${table.plan} is null or ${isOneOf(table.plan, mailPlans)}`),
    check(
      'payments_billing_cycle_check',
      sql`${table.billingCycle} is null or ${isOneOf(table.billingCycle, billingCycles)}`,
    ),
    check('payments_seats_check', sql`${table.seats} is null or ${table.seats} between 1 and 1000000`),
    check(
      'payments_mpesa_receipt_number_check',
      sql`${table.mpesaReceiptNumber} is null or ${table.mpesaReceiptNumber} ~ ${sql.raw(`'${MPESA_RECEIPT_NUMBER_PATTERN}'`)}`,
    ),
    check(
      'payments_account_reference_check',
      sql`${table.accountReference} is null or char_length(${table.accountReference}) <= 12`,
    ),
    check('payments_completed_at_check', sql`(${table.status} = 'pending') = (${table.completedAt} is null)`),
  ],
);

/**
 * The history of a payment: its creation, every answer and event from the provider, and every status
 * change. `provider_event_key` is unique, so a provider event delivered twice is recorded once and
 * recognised as a duplicate. Events that match no payment (an authentic callback for an unknown checkout)
 * are kept with `payment_id` null for support.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'cascade' }),
    type: text('type', { enum: paymentEventTypes }).notNull(),
    /** Who or what caused it: `api`, `paystack_webhook`, `daraja_callback`, `daraja_query`, `reconciliation`, ... */
    source: text('source').notNull(),
    fromStatus: text('from_status', { enum: paymentStatuses }),
    toStatus: text('to_status', { enum: paymentStatuses }),
    providerEventKey: text('provider_event_key').unique(),
    payload: jsonb('payload'),
    createdAt: createdAt(),
  },
  (table) => [
    index('payment_events_payment_idx').on(table.paymentId, table.createdAt),
    check('payment_events_type_check', isOneOf(table.type, paymentEventTypes)),
    check(
      'payment_events_from_status_check',
      sql`${table.fromStatus} is null or ${isOneOf(table.fromStatus, paymentStatuses)}`,
    ),
    check(
      'payment_events_to_status_check',
      sql`${table.toStatus} is null or ${isOneOf(table.toStatus, paymentStatuses)}`,
    ),
    check('payment_events_transition_check', sql`(${table.type} = 'status_changed') = (${table.toStatus} is not null)`),
  ],
);

/**
 * What the platform's finance staff recorded about a bank transfer they saw arrive: who, when, the amount received and
 * the bank's reference of the transfer, and the outcome (docs/decisions.md#bank-transfer-confirmation). Amounts
 * recorded for one invoice add up (docs/decisions.md#split-bank-transfers): `received_before` is what the earlier
 * records of the payment had brought in; `applied`, at most once per payment, is the record that brought the total to
 * the invoice's amount or beyond (the payment succeeded); `partial` left it below; `refund_due` arrived for a retired
 * organization. A bank reference is one line of a bank statement: recorded once, whatever its outcome (a unique index;
 * `amount_mismatch`, the outcome of amounts recorded before split transfers added up, is no longer written and stays
 * outside it, so the history recorded then stands). Append-only (the bank_transfer migration); `confirmed_by_user_id`
 * has no foreign key, so the record outlives the user, as the audit log does.
 */
export const bankTransferConfirmations = pgTable(
  'bank_transfer_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    confirmedByUserId: text('confirmed_by_user_id').notNull(),
    amountReceived: kes('amount_received').notNull(),
    /** What the invoice asked for, when the transfer was recorded. */
    amountDue: kes('amount_due').notNull(),
    /** What the payment's earlier records had brought in when this one was recorded (0 for the first). */
    receivedBefore: kes('received_before').notNull().default(0),
    bankReference: text('bank_reference').notNull(),
    outcome: text('outcome', { enum: transferConfirmationOutcomes }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('bank_transfer_confirmations_applied_unique')
      .on(table.paymentId)
      .where(sql`${table.outcome} = 'applied'`),
    uniqueIndex('bank_transfer_confirmations_bank_reference_unique')
      .on(table.bankReference)
      .where(sql`${table.outcome} <> 'amount_mismatch'`),
    index('bank_transfer_confirmations_payment_idx').on(table.paymentId, table.createdAt),
    check('bank_transfer_confirmations_outcome_check', isOneOf(table.outcome, transferConfirmationOutcomes)),
    check(
      'bank_transfer_confirmations_amounts_check',
      sql`${table.amountReceived} > 0 and ${table.amountDue} > 0 and ${table.receivedBefore} >= 0 and (
        (${table.outcome} = 'applied' and ${table.receivedBefore} < ${table.amountDue} and ${table.receivedBefore} + ${table.amountReceived} >= ${table.amountDue})
        or (${table.outcome} = 'partial' and ${table.receivedBefore} + ${table.amountReceived} < ${table.amountDue})
        or ${table.outcome} = 'refund_due'
        or (${table.outcome} = 'amount_mismatch' and ${table.receivedBefore} = 0 and ${table.amountReceived} <> ${table.amountDue}))`,
    ),
    check(
      'bank_transfer_confirmations_bank_reference_check',
      sql`char_length(${table.bankReference}) between 1 and 64`,
    ),
  ],
);

export type PaymentMethod = typeof paymentMethods.$inferSelect;
export type NewPaymentMethod = typeof paymentMethods.$inferInsert;
export type Payment = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;
export type PaymentEvent = typeof paymentEvents.$inferSelect;
export type NewPaymentEvent = typeof paymentEvents.$inferInsert;
export type BankTransferConfirmation = typeof bankTransferConfirmations.$inferSelect;
export type NewBankTransferConfirmation = typeof bankTransferConfirmations.$inferInsert;
