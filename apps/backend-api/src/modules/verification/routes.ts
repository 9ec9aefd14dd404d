import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiKeyOwner, type Database, isDeferredToTransaction, type VerificationSession } from '@platform/db';
import { errorResponses } from '@platform/http';
import type { IdempotentAnswer } from '@platform/idempotency';
import type { LifecycleOptions } from '@platform/verification-lifecycle';
import { checkSessionUrl } from './callback-url.js';
import type { DecisionTable } from './decisions/index.js';
import { type ExpirySchedule, startSessionExpiry } from './expiry.js';
import { knownPrices } from './known-prices.js';
import {
  CreateVerificationSessionBody,
  ListVerificationSessionsQuery,
  VerificationSessionCanceledSchema,
  VerificationSessionCreatedSchema,
  VerificationSessionIdParams,
  VerificationSessionListSchema,
  VerificationSessionResponseSchema,
} from './schemas.js';
import {
  type CreateSessionContext,
  cancelSession,
  createSession,
  createSessionInOneStatement,
  listSessions,
  readOwnedSession,
  sessionView,
  type VerificationPriceList,
} from './service.js';

export interface VerificationRoutesOptions extends LifecycleOptions {
  db: Database;
  now: () => Date;
  /** Where the hosted page is served, without a trailing slash. */
  verifyUrl: string;
  prices: VerificationPriceList;
  sessionTtlMs: number;
  /** Accept http and private or loopback callback URLs (local runs and tests). */
  allowPrivateCallbackTargets: boolean;
  /** How often this instance runs the expiry job; 0 leaves it to other instances. */
  expiryIntervalMs: number;
  /** What decides new sessions, by environment and type (VERIFICATION_DECISIONS). */
  decisions: DecisionTable;
}

const tags = ['verification'];
const security = [{ apiKey: [] }];

/**
 * Verification sessions (spec 4.7, docs/decisions.md#verification-sessions), scoped to the API key's organization
 * and environment.
 */
export const verificationRoutes: FastifyPluginAsyncTypebox<VerificationRoutesOptions> = async (app, options) => {
  const { db, now, verifyUrl } = options;
  const lifecycle: LifecycleOptions = { platformOrganizationId: options.platformOrganizationId };
  const pricesSeen = knownPrices();
  const ownerOf = (request: { apiKey: ApiKeyOwner }): ApiKeyOwner => ({
    organizationId: request.apiKey.organizationId,
    environment: request.apiKey.environment,
  });

  app.post(
    '/v1/verify/sessions',
    {
      config: { idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Create a verification session',
        description:
          'Creates a KYC (person) or KYB (business) session and holds its price (default kyc 50 KES, kyb 200 KES) on ' +
          "the wallet of the key's environment. Pass `verificationUrl` to your front end. Call it from your server " +
          'only. Too little available balance: 402 insufficient_funds, and nothing is created.',
        security,
        body: CreateVerificationSessionBody,
        response: { 201: VerificationSessionCreatedSchema, ...errorResponses(400, 401, 402, 409, 422) },
      },
    },
    async (request) => {
      const { type, externalEndUserId, appName, callbackUrl, locale, returnUrl, privacyNoticeUrl } = request.body;
      const owner = ownerOf(request);
      const urlOptions = { allowPrivateTargets: options.allowPrivateCallbackTargets };
      const input = {
        type,
        externalEndUserId,
        appName: appName ?? null,
        callbackUrl: callbackUrl === undefined ? null : checkSessionUrl('callbackUrl', callbackUrl, urlOptions),
        // The schema's default makes an omitted locale and `en` the same request.
        locale: locale ?? 'en',
        returnUrl: returnUrl === undefined ? null : checkSessionUrl('returnUrl', returnUrl, urlOptions),
        privacyNoticeUrl:
          privacyNoticeUrl === undefined ? null : checkSessionUrl('privacyNoticeUrl', privacyNoticeUrl, urlOptions),
      };
      const created = (session: VerificationSession) => ({
        statusCode: 201,
        body: {
          success: true as const,
          message: 'Verification session created',
          data: sessionView(session, verifyUrl),
        },
      });
      const contextAnswering = (answer: IdempotentAnswer) => {
        // The answer is stored by the create's last statement (docs/decisions.md#statements-per-request).
        const answered: { response?: ReturnType<typeof created> } = {};
        const context: CreateSessionContext = {
          ...lifecycle,
          owner,
          actor: `api_key:${request.apiKey.id}`,
          apiKeyId: request.apiKey.id,
          now: now(),
          ttlMs: options.sessionTtlMs,
          prices: options.prices,
          decisions: options.decisions,
          alongside: (session) => {
            answered.response = created(session);
            return answer.riders(answered.response);
          },
        };
        return { context, answered };
      };
      // A price this instance has seen: one statement, no transaction (docs/decisions.md#a-create-in-one-statement).
      const price = pricesSeen.get(owner.organizationId, type);
      if (price !== undefined && price > 0) {
        try {
          return await request.idempotency.withoutTransaction(db, async (database, answer) => {
            const { context, answered } = contextAnswering(answer);
            const session = await createSessionInOneStatement(database, input, context, price);
            return answered.response ?? created(session);
          });
        } catch (error) {
          if (!isDeferredToTransaction(error)) throw error;
        }
      }
      return request.idempotency.transaction(db, async (tx, answer) => {
        const { context, answered } = contextAnswering(answer);
        const session = await createSession(tx, input, context);
        pricesSeen.remember(owner.organizationId, type, session.price);
        return answered.response ?? created(session);
      });
    },
  );

  // A session id is also the credential of its hosted page (/session/<id>), so the routes whose URL carries one
  // (in the path, or in the list's cursor) are logged by their pattern
  // (docs/decisions.md#routes-whose-url-carries-a-secret).
  app.get(
    '/v1/verify/sessions',
    {
      config: { urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'List verification sessions',
        description: 'Newest first, a page at a time. Filter by `status` and `externalEndUserId`.',
        security,
        querystring: ListVerificationSessionsQuery,
        response: { 200: VerificationSessionListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { status, externalEndUserId, limit, cursor } = request.query;
      const page = await listSessions(db, ownerOf(request), { status, externalEndUserId, limit, cursor });
      return {
        success: true as const,
        data: {
          sessions: page.sessions.map((session) => sessionView(session, verifyUrl)),
          nextCursor: page.nextCursor,
        },
      };
    },
  );

  app.get(
    '/v1/verify/sessions/:id',
    {
      config: { urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Get a verification session',
        security,
        params: VerificationSessionIdParams,
        response: { 200: VerificationSessionResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const session = await readOwnedSession(db, ownerOf(request), request.params.id);
      return { success: true as const, data: sessionView(session, verifyUrl) };
    },
  );

  app.post(
    '/v1/verify/sessions/:id/cancel',
    {
      config: { idempotency: 'transaction', urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Cancel a verification session',
        description:
          'Cancels a session that is `pending` or `requires_input` and releases its hold. Any other status: 409.',
        security,
        params: VerificationSessionIdParams,
        response: { 200: VerificationSessionCanceledSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      const canceled = (session: VerificationSession) => ({
        statusCode: 200,
        body: {
          success: true as const,
          message: 'Verification session canceled',
          data: sessionView(session, verifyUrl),
        },
      });
      return request.idempotency.transaction(db, async (tx, answer) => {
        // The answer is stored by the cancel's last statement (docs/decisions.md#statements-per-request).
        let response: ReturnType<typeof canceled> | undefined;
        const session = await cancelSession(
          tx,
          ownerOf(request),
          { sessionId: request.params.id, actor: `api_key:${request.apiKey.id}`, now: now() },
          lifecycle,
          {
            alongside: (moved) => {
              response = canceled(moved);
              return answer.riders(response);
            },
          },
        );
        return response ?? canceled(session);
      });
    },
  );

  if (options.expiryIntervalMs > 0) {
    let schedule: ExpirySchedule | undefined;
    app.addHook('onReady', async () => {
      schedule = startSessionExpiry({ db, now, intervalMs: options.expiryIntervalMs, logger: app.log, ...lifecycle });
    });
    app.addHook('onClose', async () => {
      await schedule?.stop();
    });
  }
};
