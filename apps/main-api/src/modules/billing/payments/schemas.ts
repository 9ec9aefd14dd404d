import {
  billingCycles,
  mailPlans,
  type PaymentPurpose,
  paymentChannels,
  paymentMethodKinds,
  paymentPurposes,
  paymentStatuses,
} from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { MAX_SEATS, MIN_SEATS } from '@platform/pricing';
import { type Static, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import { ref } from '../../../shared/schema-ref.js';

/** A string that is one of `values`, as a union of literals (so OpenAPI lists them). */
export function oneOf<T extends string>(
  values: readonly T[],
  options: { description?: string } = {},
): TUnion<TLiteral<T>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
}

/** What POST /v1/billing/pay can buy; subscription changes and renewals are charged by the service itself. */
const payPurposes = ['wallet_topup', 'mail_subscription'] as const satisfies readonly PaymentPurpose[];

/** POST /v1/billing/pay. Unknown fields are refused, so a misspelt field is not silently ignored. */
export const PayBodySchema = Type.Object(
  {
    method: oneOf(paymentMethodKinds, {
      description:
        'card: hosted checkout; mobile_money: M-Pesa prompt to `phone`; saved_method: charge `paymentMethodId`; ' +
        'bank_transfer: an invoice and the bank details to pay it into (amounts above the card and M-Pesa limits).',
    }),
    amount: Type.Optional(
      Type.Number({
        description:
          'Whole KES. Required for wallet top-ups (1 up to the limit of the method). Ignored for mail_subscription, ' +
          'whose price the server sets: send 0.',
        examples: [1000],
      }),
    ),
    phone: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'For mobile_money: a Safaricom number in any common notation (0712345678, +254 712 345 678).',
      }),
    ),
    paymentMethodId: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "For saved_method: the id of one of the organization's saved methods.",
      }),
    ),
    metadata: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(oneOf(payPurposes, { description: 'What the payment buys. Default wallet_topup.' })),
          plan: Type.Optional(oneOf(mailPlans)),
          seats: Type.Optional(
            Type.Integer({ minimum: MIN_SEATS, maximum: MAX_SEATS, description: 'Number of mailboxes.' }),
          ),
          billingCycle: Type.Optional(oneOf(billingCycles)),
        },
        { additionalProperties: false, description: 'For mail_subscription: type, plan, seats and billingCycle.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type PayBody = Static<typeof PayBodySchema>;

/** Where and how to pay a bank transfer (docs/decisions.md#bank-transfers). */
const TransferInstructionsSchema = Type.Object(
  {
    bankName: Type.String(),
    accountName: Type.String(),
    accountNumber: Type.String(),
    branch: Type.String(),
    reference: Type.String({
      description: 'What the payer writes on the transfer (BT + 8 characters), so that it is matched to this payment.',
      examples: ['BT4K7Q9XMP'],
    }),
  },
  { additionalProperties: false, description: "bank_transfer: the seller's account and the reference to write." },
);

const TransferInvoiceSchema = Type.Object(
  {
    number: Type.String({ examples: ['INV-000001'] }),
    url: Type.String({ description: 'Its page (HTML) or PDF (Accept: application/pdf), for the organization.' }),
    amount: Type.Integer({ description: 'Whole KES, VAT included: the amount to transfer, exactly.' }),
    dueAt: Type.String({ format: 'date-time', description: 'Payable within 14 days: by this time.' }),
    expiresAt: Type.String({
      format: 'date-time',
      description: 'Unconfirmed by then (30 days), the payment expires and the invoice can no longer be paid.',
    }),
  },
  { additionalProperties: false, description: 'bank_transfer: the invoice issued for the payment.' },
);

/**
 * The answer to POST /v1/billing/pay (spec 2.1): checkoutUrl for card, message for the others, instructions and the
 * invoice for bank_transfer; always the reference.
 */
export const PaymentStartedSchema = Type.Object(
  {
    success: Type.Literal(true),
    checkoutUrl: Type.Optional(Type.String({ description: 'card: where the payer completes the payment.' })),
    reference: Type.String({ description: 'PAY-<uuid>; GET /v1/billing/payments/:reference gives the outcome.' }),
    message: Type.Optional(
      Type.String({ description: 'mobile_money, saved_method and bank_transfer: what happens next.' }),
    ),
    instructions: Type.Optional(TransferInstructionsSchema),
    invoice: Type.Optional(TransferInvoiceSchema),
  },
  { $id: 'PaymentStarted', additionalProperties: false },
);

export type PaymentStarted = Static<typeof PaymentStartedSchema>;

const nullableString = (description?: string) =>
  nullable(Type.String(), description === undefined ? {} : { description });

const PaymentSchema = Type.Object(
  {
    reference: Type.String(),
    status: stringEnum(paymentStatuses, {
      description:
        'pending until the provider answers (a bank transfer: until finance confirms the money, 30 days at most); ' +
        'then succeeded, failed, cancelled or expired.',
    }),
    method: stringEnum(paymentMethodKinds),
    channel: stringEnum(paymentChannels, {
      description: 'What moved the money (a saved method is a card or a number).',
    }),
    purpose: stringEnum(paymentPurposes),
    amount: Type.Integer({ description: 'Whole KES.' }),
    currency: Type.Literal('KES'),
    phone: nullableString('The M-Pesa number prompted (254 + 9 digits).'),
    paymentMethodId: nullableString('The saved method charged, or saved by this payment.'),
    subscription: nullable(
      Type.Object({ plan: stringEnum(mailPlans), seats: Type.Integer(), billingCycle: stringEnum(billingCycles) }),
    ),
    checkoutUrl: nullableString('card: the hosted checkout, while the payment is pending.'),
    failureReason: nullableString('Why it did not succeed.'),
    receiptNumber: nullableString(
      'The number of its receipt (RCT-000001), issued when it succeeded; GET /v1/billing/payments/:reference/receipt shows it. Null until then.',
    ),
    invoiceNumber: nullableString(
      'bank_transfer: the number of its invoice (INV-000001), issued when it started; GET /v1/billing/payments/:reference/invoice shows it. Null for other methods.',
    ),
    transferReference: nullableString('bank_transfer: what the payer writes on the transfer (BT + 8 characters).'),
    mpesaReceiptNumber: nullableString(
      'mobile_money: the M-Pesa receipt number of the payment (10 uppercase letters and digits, QKT2XYZ8AB), as in the SMS Safaricom sends the payer, once M-Pesa reported it with the success; its receipt shows it. Null otherwise.',
    ),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Payment', additionalProperties: false },
);

export type PaymentView = Static<typeof PaymentSchema>;

export const PaymentResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(PaymentSchema) },
  { $id: 'PaymentResponse' },
);

export const PaymentReferenceParams = Type.Object({
  reference: Type.String({ maxLength: 64, description: 'The payment reference, PAY-<uuid>.' }),
});

const DEFAULT_PAGE_SIZE = 20;

const periodBound = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, description, examples: ['2026-03-01', '2026-03-01T09:00:00Z'] }));

/** GET /v1/billing/payments: the page, and the filter (which the CSV export takes too). */
export const ListPaymentsQuery = Type.Object(
  {
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
    status: Type.Optional(oneOf(paymentStatuses, { description: 'Only payments in this status.' })),
    method: Type.Optional(oneOf(paymentMethodKinds, { description: 'Only payments made with this method.' })),
    purpose: Type.Optional(oneOf(paymentPurposes, { description: 'Only payments for this purpose.' })),
    from: periodBound(
      'Only payments started at or after this: a date (that day in Nairobi, UTC+3) or a date-time with a time zone.',
    ),
    to: periodBound(
      'Only payments started before this moment, or up to the end of this day (a date, in Nairobi); after `from`.',
    ),
  },
  { additionalProperties: false },
);

export const PaymentListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        payments: Type.Array(ref(PaymentSchema), {
          description: 'Newest first, each as GET /v1/billing/payments/:reference answers it.',
        }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'PaymentList', additionalProperties: false },
);

/** GET /v1/billing/checkout/complete: our reference, as the return URL carries it (Paystack adds `trxref`). */
export const CheckoutCompleteQuery = Type.Object({
  reference: Type.Optional(Type.String({ maxLength: 64 })),
  trxref: Type.Optional(Type.String({ maxLength: 64 })),
});

export const paymentSharedSchemas = [PaymentStartedSchema, PaymentSchema, PaymentResponseSchema, PaymentListSchema];
