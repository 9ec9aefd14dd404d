import { apiKeyEnvironments } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { WalletStatementQuery, WalletTransactionSchema, walletStatementData } from '@platform/ledger';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

const environmentDescription = 'The live wallet pays for live API keys, the test wallet for test keys; they never mix.';
const environment = Type.Union(
  apiKeyEnvironments.map((value) => Type.Literal(value)),
  { description: environmentDescription },
);

export const OrganizationParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
});

export const OrganizationWalletParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
  environment,
});

export { WalletStatementQuery };

/** Whole KES: the largest a JavaScript number holds exactly. */
const MAX_KES = Number.MAX_SAFE_INTEGER;

const OrganizationWalletSchema = Type.Object(
  {
    environment: stringEnum(apiKeyEnvironments, { description: environmentDescription }),
    currency: Type.Literal('KES'),
    available: Type.Integer({ description: 'Whole KES that new verification sessions can hold.' }),
    held: Type.Integer({ description: 'Whole KES held for sessions not finished yet.' }),
    lowBalanceThreshold: nullable(Type.Integer(), {
      description:
        'Whole KES. When a session takes the available balance from at or above it to below it, every member is ' +
        'notified and a wallet.balance_low callback is sent, once until a top-up brings it back. Null: no alerts.',
    }),
    lowBalanceAlertedAt: nullable(Type.String({ format: 'date-time' }), {
      description: 'When the current alert was sent; null while the next crossing would alert.',
    }),
  },
  { $id: 'OrganizationWallet', additionalProperties: false },
);

export type OrganizationWalletView = Static<typeof OrganizationWalletSchema>;

export const OrganizationWalletListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      { wallets: Type.Array(ref(OrganizationWalletSchema), { description: 'live, then test.' }) },
      { additionalProperties: false },
    ),
  },
  { $id: 'OrganizationWalletList', additionalProperties: false },
);

export const OrganizationWalletResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(OrganizationWalletSchema) },
  { $id: 'OrganizationWalletResponse', additionalProperties: false },
);

export const OrganizationWalletUpdatedSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(OrganizationWalletSchema) },
  { $id: 'OrganizationWalletUpdated', additionalProperties: false },
);

/** PATCH body. Unknown fields are refused, so a misspelt field is not silently ignored. */
export const UpdateOrganizationWalletBodySchema = Type.Object(
  {
    lowBalanceThreshold: Type.Union([Type.Integer({ minimum: 0, maximum: MAX_KES, examples: [500] }), Type.Null()], {
      description: 'Whole KES, 0 or more (0 never alerts: the balance cannot go below it), or null to turn alerts off.',
    }),
  },
  { $id: 'UpdateOrganizationWallet', additionalProperties: false },
);

/** The largest test top-up: KES 1,000,000,000 at a time (test credit is free, but a balance must stay exact). */
export const MAX_TEST_TOP_UP = 1_000_000_000;

/** POST .../wallets/test/top-ups body. Unknown fields are refused. */
export const TestTopUpBodySchema = Type.Object(
  {
    amount: Type.Integer({
      minimum: 1,
      maximum: MAX_TEST_TOP_UP,
      examples: [10_000],
      description: `Whole KES of test credit to add, 1 to ${MAX_TEST_TOP_UP}. Free: no payment is made.`,
    }),
  },
  { $id: 'TestTopUp', additionalProperties: false },
);

export const TestTopUpResultSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        transactionId: Type.String({
          format: 'uuid',
          description: "The top-up's movement in the test wallet's statement (GET .../wallets/test/transactions).",
        }),
        wallet: ref(OrganizationWalletSchema),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'TestTopUpResult', additionalProperties: false },
);

export const OrganizationWalletTransactionListSchema = Type.Object(
  { success: Type.Literal(true), data: walletStatementData(ref(WalletTransactionSchema)) },
  { $id: 'OrganizationWalletTransactionList', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const walletSharedSchemas = [
  WalletTransactionSchema,
  OrganizationWalletSchema,
  OrganizationWalletListSchema,
  OrganizationWalletResponseSchema,
  OrganizationWalletUpdatedSchema,
  OrganizationWalletTransactionListSchema,
  TestTopUpResultSchema,
];
