import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { idempotency } from '@platform/idempotency';
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
  TestTopUpBodySchema,
  TestTopUpResultSchema,
  UpdateOrganizationWalletBodySchema,
  WalletStatementQuery,
} from './schemas.js';
import {
  getOrganizationWallet,
  listOrganizationWallets,
  organizationWalletTransactions,
  topUpTestWallet,
  updateLowBalanceThreshold,
} from './service.js';

export const WALLET_SETTINGS_UPDATED = 'Wallet settings updated';
export const TEST_WALLET_TOPPED_UP = 'Test wallet topped up';

export interface WalletRoutesOptions {
  db: Database;
  now: () => Date;
  /** Whole KES a test wallet created on first use starts with (docs/decisions.md#test-credit). */
  testWalletCredit: number;
}

/**
 * The organization's live and test wallets for its members (docs/decisions.md#wallet-statement,
 * docs/decisions.md#low-balance-alerts): balances and statements for every member, the low-balance threshold set by
 * the billing roles. The organization is the one in the path: 404 for one the caller is not in.
 */
export const walletRoutes: FastifyPluginAsyncTypebox<WalletRoutesOptions> = async (
  app,
  { db, now, testWalletCredit },
) => {
  const tags = ['wallets'];
  const read = { organization: 'path', requires: 'organization:read' } as const;
  const newWallet = { testCredit: testWalletCredit };

  // Only the test top-up takes an idempotency key, so the plugin is registered around it alone.
  await app.register(async (instance) => {
    const topUps = instance.withTypeProvider<TypeBoxTypeProvider>();
    await topUps.register(idempotency, {
      db,
      now,
      scopeOf: (request) =>
        `user:${request.user.id}:organization:${(request.params as { id: string }).id}:test-top-ups`,
      onReplay: () => app.metrics.idempotentReplays.inc(),
    });

    topUps.post(
      '/v1/organizations/:id/wallets/test/top-ups',
      {
        // Only writes locally: the movement, its audit event and the stored answer commit together.
        config: { organization: 'path', requires: 'wallet:test_top_up', idempotency: 'transaction' },
        schema: {
          tags,
          summary: 'Top up the test wallet, free',
          description:
            'Adds test credit to the test wallet at once: no payment, no provider, any time (docs/decisions.md' +
            '#test-top-ups). Recorded in the test statement as a top-up and in the audit log. Test keys spend it; the ' +
            'live wallet is topped up only by paying (POST /v1/billing/pay), once the organization is activated. ' +
            'With an Idempotency-Key, a retry answers the first top-up instead of adding a second.',
          security: bearerSecurity,
          params: OrganizationParams,
          body: TestTopUpBodySchema,
          response: { 201: ref(TestTopUpResultSchema), ...errorResponses(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        request.idempotency.transaction(db, async (tx) => {
          const organizationId = request.organization.id;
          const { amount } = request.body;
          const { wallet, transactionId } = await topUpTestWallet(tx, {
            organizationId,
            amount,
            audit: auditContextOf(request),
            testCredit: testWalletCredit,
          });
          const data = { wallet, transactionId };
          request.log.info({ organizationId, amount }, 'Test wallet topped up');
          return { statusCode: 201, body: { success: true as const, message: TEST_WALLET_TOPPED_UP, data } };
        }),
    );
  });

  app.get(
    '/v1/organizations/:id/wallets',
    {
      config: read,
      schema: {
        tags,
        summary: "The organization's wallets",
        description:
          'The live and the test wallet: balances in whole KES and the low-balance alert settings. A wallet never ' +
          'used is created: the live one empty, the test one with its test credit. Unknown organization, or not the ' +
          "caller's: 404.",
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(OrganizationWalletListSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { wallets: await listOrganizationWallets(db, request.organization.id, newWallet) },
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
      data: await getOrganizationWallet(
        db,
        { organizationId: request.organization.id, environment: request.params.environment },
        newWallet,
      ),
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
