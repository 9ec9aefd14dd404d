import { paymentChannels } from '@platform/db';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../../shared/schema-ref.js';

const PaymentMethodSchema = Type.Object(
  {
    id: Type.String({ description: 'Use as paymentMethodId with method saved_method.' }),
    type: Type.Union(paymentChannels.map((value) => Type.Literal(value))),
    card: Type.Union(
      [
        Type.Object({
          brand: Type.Union([Type.String(), Type.Null()]),
          last4: Type.String(),
          expMonth: Type.Union([Type.Integer(), Type.Null()]),
          expYear: Type.Union([Type.Integer(), Type.Null()]),
          bank: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: 'For cards; null for M-Pesa numbers.' },
    ),
    phone: Type.Union([Type.String(), Type.Null()], {
      description: 'For M-Pesa numbers (254 + 9 digits); null for cards.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'PaymentMethod', additionalProperties: false },
);

export type PaymentMethodView = Static<typeof PaymentMethodSchema>;

export const PaymentMethodListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({ paymentMethods: Type.Array(ref(PaymentMethodSchema), { description: 'Newest first.' }) }),
  },
  { $id: 'PaymentMethodList' },
);

export const PaymentMethodIdParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'Payment method id.' }),
});

export const paymentMethodSharedSchemas = [PaymentMethodSchema, PaymentMethodListSchema];
