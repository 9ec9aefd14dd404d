import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { WalletResponseSchema } from './schemas.js';
import { walletBalances } from './service.js';

/** The prepaid wallet that verification sessions are paid from (docs/decisions.md#wallet-creation-and-credits). */
export const walletRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/v1/wallet',
    {
      schema: {
        tags: ['wallet'],
        summary: "The wallet of the key's organization and environment",
        description: 'Balances in whole KES. A wallet that was never used shows 0 and 0.',
        security: [{ apiKey: [] }],
        response: { 200: WalletResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { organizationId, environment } = request.apiKey;
      const { available, held } = await walletBalances(db, { organizationId, environment });
      return { success: true as const, data: { environment, currency: 'KES' as const, available, held } };
    },
  );
};
