import { billingCycles, mailPlans, paymentPurposes, paymentStatuses, transferConfirmationOutcomes } from '@platform/db';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../../shared/schema-ref.js';
import { oneOf } from '../payments/index.js';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const nullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const TransferParams = Type.Object({
  reference: Type.String({
    maxLength: 64,
    description:
      'The payment reference (PAY-<uuid>), or the reference the payer wrote on the transfer (BT + 8 characters, in ' +
      'any case, with spaces or hyphens, O for 0 and I or L for 1).',
  }),
});

/** POST /v1/finance/payments/:reference/confirm: what arrived on the bank statement. */
export const ConfirmTransferBodySchema = Type.Object(
  {
    amountReceived: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Whole KES, as the bank statement shows it.',
      examples: [4_500_900],
    }),
    bankReference: Type.String({
      minLength: 1,
      maxLength: 64,
      // What it may contain is checked by the service (bank-reference.ts), whose refusal says it in words.
      description:
        "The bank's own reference of the transfer, as the statement shows it: letters, digits, spaces and . / _ -, " +
        'starting with a letter or a digit; stored upper case. One line of a bank statement is recorded once, ' +
        'whatever its outcome.',
      examples: ['FT26330ABCDE'],
    }),
  },
  { additionalProperties: false },
);

export type ConfirmTransferBody = Static<typeof ConfirmTransferBodySchema>;

const ConfirmationSchema = Type.Object(
  {
    amountReceived: Type.Integer({ description: 'Whole KES.' }),
    amountDue: Type.Integer({ description: 'What the invoice asked for, whole KES.' }),
    receivedBefore: Type.Integer({ description: "What the transfer's earlier records had brought in, whole KES." }),
    bankReference: Type.String(),
    outcome: oneOf(transferConfirmationOutcomes, {
      description:
        'applied: with what came before it reached the invoice, and the payment succeeded (an excess went to the ' +
        "credit balance, or a top-up's wallet); partial: still below, the invoice stays open for the rest; " +
        'refund_due: received for a closed organization, nothing applied, to refund; amount_mismatch: another amount, ' +
        'recorded before amounts added up (no longer written).',
    }),
    confirmedBy: Type.String({ description: 'The user id of the finance member who recorded it.' }),
    confirmedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const TransferSchema = Type.Object(
  {
    reference: Type.String({ description: 'PAY-<uuid>.' }),
    transferReference: Type.String({ description: 'What the payer writes on the transfer.' }),
    invoiceNumber: nullableString('INV-000001.'),
    organization: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    status: oneOf(paymentStatuses, {
      description:
        'pending until confirmed (succeeded) or 30 days have passed (expired); cancelled when voided (its ' +
        'organization was closed, or its renewal is no longer due); refund_due when money arrived for a closed ' +
        'organization.',
    }),
    purpose: oneOf(paymentPurposes),
    amount: Type.Integer({ description: 'Whole KES, VAT included: what the invoice asks for.' }),
    amountReceived: Type.Integer({
      description: 'What finance recorded for it in all, whole KES: the invoice is paid once this reaches amount.',
    }),
    currency: Type.Literal('KES'),
    subscription: Type.Union([
      Type.Object(
        { plan: oneOf(mailPlans), seats: Type.Integer(), billingCycle: oneOf(billingCycles) },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    bankReference: nullableString("The bank's reference of the transfer that paid it; null until confirmed."),
    receiptNumber: nullableString('RCT-000001, once confirmed.'),
    confirmations: Type.Array(ConfirmationSchema, {
      description: 'Everything finance recorded about it, oldest first: each transfer of a split payment is one.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    dueAt: nullableTime('Payable by (14 days after the invoice).'),
    expiresAt: Type.String({ format: 'date-time', description: 'Unconfirmed by then (30 days), it expires.' }),
    completedAt: nullableTime('When it was confirmed or expired.'),
  },
  { $id: 'BankTransfer', additionalProperties: false },
);

export type TransferView = Static<typeof TransferSchema>;

const DEFAULT_PAGE_SIZE = 20;

export const ListTransfersQuery = Type.Object(
  {
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
    status: Type.Optional(oneOf(paymentStatuses, { description: 'Only transfers in this status (pending: awaited).' })),
    reference: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'Only the transfer with this payment reference or transfer reference (as on the statement).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TransferListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      { transfers: Type.Array(ref(TransferSchema)), nextCursor: nextCursorSchema() },
      { additionalProperties: false },
    ),
  },
  { $id: 'BankTransferList', additionalProperties: false },
);

export const ConfirmTransferResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        outcome: oneOf(transferConfirmationOutcomes),
        transfer: ref(TransferSchema),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'BankTransferConfirmed', additionalProperties: false },
);

export const bankTransferSharedSchemas = [TransferSchema, TransferListSchema, ConfirmTransferResponseSchema];
