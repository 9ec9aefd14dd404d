import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiKeyOwner, Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { errorResponses } from '@platform/http';
import type { LifecycleOptions, MoveResult } from '@platform/verification-lifecycle';
import { checkSessionUrl } from './callback-url.js';
import type { DecisionTable } from './decisions/index.js';
import { type ExpirySchedule, startSessionExpiry } from './expiry.js';
import { knownPrices } from './known-prices.js';
import {
  CreateVerificationSessionBody,
  ListVerificationSessionsQuery,
  TestDecisionBody,
  VerificationSessionCanceledSchema,
  VerificationSessionCreatedSchema,
  VerificationSessionDetailResponseSchema,
  VerificationSessionIdParams,
  VerificationSessionListSchema,
  VerificationSessionTestDecisionSchema,
} from './schemas.js';
import {
  type CreateSessionContext,
  cancelSession,
  createSession,
  listSessions,
  sessionView,
  type VerificationPriceList,
} from './service.js';
import { readSessionDetail } from './session-detail.js';
import { decideTestSession, testSessionToDecide } from './test-decisions.js';
import { verifiedSessionExamples } from './verified-data-examples.js';
import { GetVerificationSessionQuery } from './verified-data-schemas.js';

export interface VerificationRoutesOptions extends LifecycleOptions {
  db: Database;
  now: () => Date;
  /** Opens a session's sealed verified data (docs/decisions.md#verified-data). */
  vault: DocumentVault;
  /** Where the hosted page is served, without a trailing slash. */
  verifyUrl: string;
  prices: VerificationPriceList;
  /** Whole KES a test wallet first used by a session starts with (docs/decisions.md#test-credit). */
  testWalletCredit: number;
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
      const context: CreateSessionContext = {
        ...lifecycle,
        owner,
        actor: `api_key:${request.apiKey.id}`,
        apiKeyId: request.apiKey.id,
        now: now(),
        ttlMs: options.sessionTtlMs,
        prices: options.prices,
        testWalletCredit: options.testWalletCredit,
        decisions: options.decisions,
        pricesSeen,
      };
      return request.idempotency.unitOfWork(db, async (work) => {
        const session = await createSession(work, input, context);
        return {
          statusCode: 201,
          body: {
            success: true as const,
            message: 'Verification session created',
            data: sessionView(session, verifyUrl),
          },
        };
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
        description:
          'The session with the checks of its latest submission (outcomes and summaries, no personal data). ' +
          '`expand=verified_outputs` adds `verifiedOutputs`, what the verification confirmed (null before a ' +
          '`verified` decision and after erasure): only for API keys with the permission `verified_data:read` (else ' +
          '403 `forbidden`, nothing read), and every such read is recorded in the audit log as ' +
          '`verification.verified_data_viewed`. Verified data is never sent in callbacks.',
        security,
        params: VerificationSessionIdParams,
        querystring: GetVerificationSessionQuery,
        response: {
          200: { ...VerificationSessionDetailResponseSchema, examples: verifiedSessionExamples },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const detail = await readSessionDetail(db, options.vault, ownerOf(request), request.params.id, {
        key: request.apiKey,
        expandVerifiedOutputs: request.query.expand === 'verified_outputs',
        requestId: request.id,
        ip: request.ip,
      });
      return {
        success: true as const,
        data: {
          ...sessionView(detail.session, verifyUrl),
          checks: detail.checks,
          ...(detail.verifiedOutputs === undefined ? {} : { verifiedOutputs: detail.verifiedOutputs }),
        },
      };
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
      const cancel = { sessionId: request.params.id, actor: `api_key:${request.apiKey.id}`, now: now() };
      return request.idempotency.unitOfWork(db, async (work) => {
        const session = await cancelSession(work, ownerOf(request), cancel, lifecycle);
        return {
          statusCode: 200,
          body: {
            success: true as const,
            message: 'Verification session canceled',
            data: sessionView(session, verifyUrl),
          },
        };
      });
    },
  );

  app.post(
    '/v1/verify/sessions/:id/test-decision',
    {
      config: { idempotency: 'transaction', urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Decide a test session',
        description:
          'Test keys only: moves a test session as the sandbox buttons of its hosted page do, without a browser, ' +
          'through the same lifecycle as a live decision (the same callback, the price held on the test wallet ' +
          'captured on `verified` or `rejected`, once). `processing` submits it (from `pending` or `requires_input`, ' +
          'no documents needed); `verified`, `rejected` and `requires_input` decide it (from `processing`), with ' +
          '`reason` (rejected, requires_input) and `resubmitDocuments` (requires_input). A live key: 403 ' +
          '`forbidden`, nothing read or changed. A status that does not allow the move: 409 naming it. A test ' +
          'session another decision source decides (VERIFICATION_DECISIONS): 409.',
        security,
        params: VerificationSessionIdParams,
        body: TestDecisionBody,
        response: {
          200: {
            ...VerificationSessionTestDecisionSchema,
            examples: [
              {
                success: true,
                message: 'Test session moved to requires_input',
                data: {
                  sessionId: '4f1c2b9e-8d3a-4c51-9e0f-2a6b7c8d9e10',
                  verificationUrl: 'https://verify.example.com/session/4f1c2b9e-8d3a-4c51-9e0f-2a6b7c8d9e10',
                  type: 'kyc',
                  environment: 'test',
                  status: 'requires_input',
                  externalEndUserId: 'user-42',
                  appName: 'Acme Wallet',
                  callbackUrl: null,
                  locale: 'en',
                  returnUrl: null,
                  privacyNoticeUrl: null,
                  requiredDocuments: ['id_document_front', 'id_document_back', 'selfie'],
                  lastError: 'The selfie is blurred',
                  lastErrorCode: null,
                  resubmitDocuments: ['selfie'],
                  price: 50,
                  createdAt: '2026-03-02T09:00:00.000Z',
                  updatedAt: '2026-03-02T09:05:00.000Z',
                  expiresAt: '2026-03-03T09:00:00.000Z',
                  completedAt: null,
                  submittedAt: null,
                  personalDataErasedAt: null,
                },
              },
            ],
          },
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const sessionId = request.params.id;
      await testSessionToDecide(db, owner, sessionId, request.body);
      const decide = { sessionId, input: request.body, actor: `api_key:${request.apiKey.id}`, now: now() };
      let decided: MoveResult | undefined;
      const answer = await request.idempotency.unitOfWork(db, async (work) => {
        decided = await decideTestSession(work, owner, decide, lifecycle);
        return {
          statusCode: 200,
          body: {
            success: true as const,
            message: `Test session moved to ${decided.session.status}`,
            data: sessionView(decided.session, verifyUrl),
          },
        };
      });
      // Committed: the decision reaches the metrics as a button's does.
      if (decided?.decision !== undefined) options.onDecided?.(decided.decision);
      return answer;
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
