import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { WalletResponseSchema, WalletStatementQuery, WalletTransactionListSchema } from './schemas.js';
import { walletBalances, walletTransactions } from './service.js';

/** The prepaid wallet that verification sessions are paid from (docs/decisions.md#wallet-creation-and-credits). */
export const walletRoutes: FastifyPluginAsyncTypebox<{ db: Database; testWalletCredit: number }> = async (
  app,
  { db, testWalletCredit },
) => {
  app.get(
    '/v1/wallet',
    {
      schema: {
        tags: ['wallet'],
        summary: "The wallet of the key's organization and environment",
        description:
          'Balances in whole KES. A wallet never used is created: a live one empty, a test one with its test credit ' +
          '(TEST_WALLET_CREDIT, KES 10,000 unless configured), recorded in its statement as a top-up.',
        security: [{ apiKey: [] }],
        response: { 200: WalletResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { organizationId, environment } = request.apiKey;
      const { available, held } = await walletBalances(
        db,
        { organizationId, environment },
        { testCredit: testWalletCredit },
      );
      return { success: true as const, data: { environment, currency: 'KES' as const, available, held } };
    },
  );

  app.get(
    '/v1/wallet/transactions',
    {
      schema: {
        tags: ['wallet'],
        summary: "The statement of the key's wallet",
        description:
          "Every movement of the key's organization's wallet in the key's environment, newest first, a page at a " +
          'time (pass nextCursor as cursor for the next page): top-ups, holds of session prices, their captures and ' +
          'releases, each with the session or payment it belongs to and the balances right after it, as the ledger ' +
          'recorded them. Amounts are whole KES. A cursor this API did not return is a 400.',
        security: [{ apiKey: [] }],
        querystring: WalletStatementQuery,
        response: { 200: WalletTransactionListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { organizationId, environment } = request.apiKey;
      const { limit, cursor } = request.query;
      return {
        success: true as const,
        data: await walletTransactions(db, { organizationId, environment }, { limit, cursor }),
      };
    },
  );
};
