import { paymentChannels, paymentMethodKinds, paymentProviders, paymentPurposes } from '@platform/db';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../../shared/schema-ref.js';
import { oneOf } from '../payments/index.js';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const nullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

const RefundDueSchema = Type.Object(
  {
    reference: Type.String({ description: 'PAY-<uuid>.' }),
    organization: Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        retiredAt: nullableTime('When the organization was closed.'),
      },
      { additionalProperties: false },
    ),
    method: oneOf(paymentMethodKinds),
    channel: oneOf(paymentChannels),
    provider: oneOf(paymentProviders),
    purpose: oneOf(paymentPurposes, { description: 'What it was for; nothing of it was applied.' }),
    amount: Type.Integer({ description: "The payment's amount, whole KES." }),
    amountToRefund: Type.Integer({
      description:
        'Whole KES to give back: what the provider took (the amount), or for a bank transfer what finance recorded ' +
        'for it in all.',
    }),
    currency: Type.Literal('KES'),
    providerReference: nullableString("The provider's reference of the payment (the CheckoutRequestID for M-Pesa)."),
    mpesaReceiptNumber: nullableString("M-Pesa's receipt number, when M-Pesa reported one."),
    transferReference: nullableString('What the payer wrote on a bank transfer (BT + 8 characters).'),
    bankReferences: Type.Array(Type.String(), {
      description: "The bank's references of the transfers finance recorded for it, oldest first.",
    }),
    reportedBy: nullableString(
      'What reported the money: paystack_webhook, daraja_callback, reconciliation, finance, organization_retired ' +
        '(money recorded for a transfer before its organization was closed), ...',
    ),
    reason: nullableString('Why it is to refund.'),
    createdAt: Type.String({ format: 'date-time' }),
    receivedAt: nullableTime('When the money was recorded as arrived for the closed organization.'),
  },
  { $id: 'RefundDue', additionalProperties: false },
);

export type RefundDueView = Static<typeof RefundDueSchema>;

const DEFAULT_PAGE_SIZE = 20;

export const ListRefundsDueQuery = Type.Object(
  { ...pageQueryProperties(DEFAULT_PAGE_SIZE) },
  { additionalProperties: false },
);

export const RefundDueListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      { refunds: Type.Array(ref(RefundDueSchema)), nextCursor: nextCursorSchema() },
      { additionalProperties: false },
    ),
  },
  { $id: 'RefundDueList', additionalProperties: false },
);

export const refundSharedSchemas = [RefundDueSchema, RefundDueListSchema];
