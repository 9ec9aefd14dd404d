import { ledgerTransactionKinds } from '@platform/db';
import { nullable, stringEnum } from '@platform/http/serializable-schemas';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { type TSchema, Type } from '@sinclair/typebox';

// The statement's shapes, for both services' routes and OpenAPI, so the two answer alike.

const DEFAULT_PAGE_SIZE = 20;

const kes = (description: string) => Type.Integer({ minimum: 0, description });

/** One movement of a wallet. */
export const WalletTransactionSchema = Type.Object(
  {
    id: Type.String({ description: 'The ledger transaction (UUID).' }),
    kind: stringEnum(ledgerTransactionKinds, {
      description:
        '`top_up`: money in (a payment or a credit), added to available. `hold`: a session price moved from ' +
        'available to held. `capture`: a hold taken for good (the session was verified or rejected). `release`: a ' +
        'hold given back to available (the session expired or was canceled).',
    }),
    amount: Type.Integer({ minimum: 1, description: 'Whole KES; `kind` says which way it moved.' }),
    reference: Type.String({
      description:
        'What caused it: `verification_session:<id>`, `payment:<reference>`, or the name of a credit the platform made.',
    }),
    sessionId: nullable(Type.String(), {
      description: 'The verification session of a hold, capture or release; null otherwise.',
    }),
    paymentReference: nullable(Type.String(), {
      description: 'The payment (`PAY-...`) of a top-up paid on the main API; null otherwise.',
    }),
    description: nullable(Type.String(), { description: 'What the ledger says it was.' }),
    balanceAfter: Type.Object(
      {
        available: kes('Whole KES available right after this movement.'),
        held: kes('Whole KES held right after this movement.'),
      },
      { additionalProperties: false, description: 'The wallet right after this movement, as the ledger recorded it.' },
    ),
    createdAt: Type.String({ format: 'date-time', description: 'When it happened.' }),
  },
  { $id: 'WalletTransaction', additionalProperties: false },
);

/** `limit` (1-100, default 20) and `cursor`. */
export const WalletStatementQuery = Type.Object(pageQueryProperties(DEFAULT_PAGE_SIZE), {
  additionalProperties: false,
});

/** `data` of a statement page, with `item` as WalletTransactionSchema itself or a service's reference to it. */
export function walletStatementData<Item extends TSchema>(item: Item) {
  return Type.Object(
    {
      transactions: Type.Array(item, { description: 'Newest first.' }),
      nextCursor: nextCursorSchema(),
    },
    { additionalProperties: false },
  );
}
