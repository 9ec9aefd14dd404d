import { stringEnum } from '@platform/http';
import { WalletTransactionSchema, walletStatementData } from '@platform/ledger';
import { Type } from '@sinclair/typebox';

const WalletSchema = Type.Object(
  {
    environment: stringEnum(['live', 'test'] as const, {
      description: "The API key's environment; live and test wallets are kept apart.",
    }),
    currency: Type.Literal('KES'),
    available: Type.Integer({ description: 'Whole KES that new sessions can hold.' }),
    held: Type.Integer({
      description:
        'Whole KES held for sessions not finished yet: taken when they are verified or rejected, given back when they expire or are canceled.',
    }),
  },
  { $id: 'Wallet', additionalProperties: false },
);

export const WalletResponseSchema = Type.Object(
  { success: Type.Literal(true), data: WalletSchema },
  { $id: 'WalletResponse', additionalProperties: false },
);

export { WalletStatementQuery } from '@platform/ledger';

export const WalletTransactionListSchema = Type.Object(
  { success: Type.Literal(true), data: walletStatementData(WalletTransactionSchema) },
  { $id: 'WalletTransactionList', additionalProperties: false },
);
