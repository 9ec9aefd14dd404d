import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  OrganizationParams,
  OrganizationWalletListSchema,
  OrganizationWalletParams,
  OrganizationWalletResponseSchema,
  OrganizationWalletTransactionListSchema,
  OrganizationWalletUpdatedSchema,
  UpdateOrganizationWalletBodySchema,
  WalletStatementQuery,
} from './schemas.js';
import {
  getOrganizationWallet,
  listOrganizationWallets,
  organizationWalletTransactions,
  updateLowBalanceThreshold,
} from './service.js';

export const WALLET_SETTINGS_UPDATED = 'Wallet settings updated';

/**
 * The organization's live and test wallets for its members (docs/decisions.md#wallet-statement,
 * docs/decisions.md#low-balance-alerts): balances and statements for every member, the low-balance threshold set by
 * the billing roles. The organization is the one in the path: 404 for one the caller is not in.
 */
export const walletRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  const tags = ['wallets'];
  const read = { organization: 'path', requires: 'organization:read' } as const;

  app.get(
    '/v1/organizations/:id/wallets',
    {
      config: read,
      schema: {
        tags,
        summary: "The organization's wallets",
        description:
          'The live and the test wallet: balances in whole KES and the low-balance alert settings. A wallet never ' +
          "used shows 0 and 0. Unknown organization, or not the caller's: 404.",
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(OrganizationWalletListSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { wallets: await listOrganizationWallets(db, request.organization.id) },
    }),
  );

  app.get(
    '/v1/organizations/:id/wallets/:environment',
    {
      config: read,
      schema: {
        tags,
        summary: 'One wallet of the organization',
        description: 'Balances in whole KES and the low-balance alert settings of the live or the test wallet.',
        security: bearerSecurity,
        params: OrganizationWalletParams,
        response: { 200: ref(OrganizationWalletResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getOrganizationWallet(db, {
        organizationId: request.organization.id,
        environment: request.params.environment,
      }),
    }),
  );

  app.patch(
    '/v1/organizations/:id/wallets/:environment',
    {
      config: { organization: 'path', requires: 'billing:write' },
      schema: {
        tags,
        summary: "Set the wallet's low-balance threshold",
        description:
          'lowBalanceThreshold: whole KES, 0 or more, or null for no alerts. When a verification session takes the ' +
          'available balance from at or above it to below it, every member is notified in the app and a ' +
          "wallet.balance_low callback goes to the environment's default callback URL; once, until a top-up brings " +
          'the balance back to the threshold. Setting it re-arms the alert; it does not alert by itself. Recorded in ' +
          'the audit log. Unknown fields are refused.',
        security: bearerSecurity,
        params: OrganizationWalletParams,
        body: UpdateOrganizationWalletBodySchema,
        response: { 200: ref(OrganizationWalletUpdatedSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { environment } = request.params;
      const wallet = await updateLowBalanceThreshold(db, {
        organizationId: request.organization.id,
        environment,
        lowBalanceThreshold: request.body.lowBalanceThreshold,
        audit: auditContextOf(request),
      });
      request.log.info({ organizationId: request.organization.id, environment }, 'Wallet low-balance threshold set');
      return { success: true as const, message: WALLET_SETTINGS_UPDATED, data: wallet };
    },
  );

  app.get(
    '/v1/organizations/:id/wallets/:environment/transactions',
    {
      config: read,
      schema: {
        tags,
        summary: "The wallet's statement",
        description:
          'Every movement of the live or the test wallet, newest first, a page at a time (pass nextCursor as cursor ' +
          'for the next page): top-ups, holds of session prices, their captures and releases, each with the session ' +
          'or payment it belongs to and the balances right after it, as the ledger recorded them. The same statement ' +
          'backend-api answers an API key of that environment with. A cursor this API did not return is a 400.',
        security: bearerSecurity,
        params: OrganizationWalletParams,
        querystring: WalletStatementQuery,
        response: { 200: ref(OrganizationWalletTransactionListSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const data = await organizationWalletTransactions(
        db,
        { organizationId: request.organization.id, environment: request.params.environment },
        { limit, cursor },
      );
      return { success: true as const, data };
    },
  );
};
