import { createRequire } from 'node:module';
import cors from '@fastify/cors';
import type { DatabaseHandle } from '@platform/db';
import { type DocumentVault, documentVaultFromConfig } from '@platform/document-vault';
import { createServer, SuccessMessage, SuccessOnly } from '@platform/http';
import { rateLimiting } from '@platform/rate-limit';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.js';
import type { MainApiConfig } from './config.js';
import { createMailSender } from './mail/from-config.js';
import type { MailSender } from './mail/mail-sender.js';
import { AvatarUploadResponseSchema, avatarRoutes } from './modules/accounts/avatars/index.js';
import { accountRoutes, accountSharedSchemas } from './modules/accounts/index.js';
import { activationRoutes, activationSharedSchemas } from './modules/activation/index.js';
import { allowedOriginRoutes, allowedOriginSharedSchemas } from './modules/allowed-origins/index.js';
import { apiKeyRoutes, apiKeySharedSchemas } from './modules/api-keys/index.js';
import { auditRoutes, auditSharedSchemas } from './modules/audit/index.js';
import {
  billingRoutes,
  billingSharedSchemas,
  createBillingServices,
  type ProviderTimeout,
} from './modules/billing/index.js';
import {
  consoleSessionRoutes,
  consoleSessionSharedSchemas,
  consoleSessionStoreOf,
} from './modules/console-sessions/index.js';
import { DASHBOARD_PAYMENTS_PATH, dashboardRoutes } from './modules/dashboard/index.js';
import { invitationRoutes, invitationSharedSchemas } from './modules/invitations/index.js';
import { notificationRoutes, notificationSharedSchemas } from './modules/notifications/index.js';
import { organizationRoutes, organizationSharedSchemas } from './modules/organizations/index.js';
import { reviewConsoleRoutes } from './modules/review-console/index.js';
import {
  createReviewService,
  documentLinkKeyOf,
  reviewMetricsOf,
  reviewRoutes,
  reviewSharedSchemas,
} from './modules/reviews/index.js';
import { verificationSessionRoutes, verificationSessionSharedSchemas } from './modules/verification-sessions/index.js';
import { walletRoutes, walletSharedSchemas } from './modules/wallets/index.js';
import { webhookDeliveryRoutes, webhookDeliverySharedSchemas } from './modules/webhook-deliveries/index.js';
import { webhookRoutes, webhookSharedSchemas } from './modules/webhooks/index.js';
import { authenticatedUserOf, authentication } from './plugins/authentication.js';
import { organizationAccess } from './plugins/organization-access.js';
import { bearerSecurityScheme } from './shared/route-schemas.js';
import type { ObjectStorage } from './storage/object-storage.js';

/** What main-api runs on. The composition root (server.ts) or a test provides them. */
export interface MainApiDeps {
  database: DatabaseHandle;
  /** Where uploaded avatars go. */
  storage: ObjectStorage;
  /** Shares rate-limit counters between instances; reported by /readyz. */
  redis?: Redis;
  /** Replaces the verifier config describes (AUTH_JWT_SECRET / AUTH_JWKS_URL). */
  tokenVerifier?: TokenVerifier;
  /** The service's clock; defaults to the system time. */
  now?: () => Date;
  /**
   * Starts the time limit (PROVIDER_TIMEOUT_MS) of each request to a payment provider; defaults to
   * AbortSignal.timeout. Tests replace it to time out an unanswered request at once.
   */
  providerTimeout?: ProviderTimeout;
  /** Replaces the pino logger built from LOG_LEVEL. */
  logger?: FastifyBaseLogger;
  /** Where emails go; defaults to what config.mail selects (SMTP_URL, MAIL_OUTBOX_DIR or none). */
  mail?: MailSender;
  /** Where reviewers read identity documents and members verified data from; defaults to the vault DOCUMENT_* configure. Tests pass their own. */
  vault?: DocumentVault;
}

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * Builds main-api, the bearer-token service. Never listens: server.ts does,
 * tests use inject. Returned before `ready()`, so callers may still add routes and hooks.
 */
export function buildApp(deps: MainApiDeps, config: MainApiConfig) {
  const now = deps.now ?? (() => new Date());
  const { db } = deps.database;
  const { redis } = deps;

  const app = createServer({
    service: {
      name: 'main-api',
      version,
      description:
        "Account profile, avatars and in-app notifications for the authenticated user, the organization's " +
        "API keys and callback settings, and the platform reviewers' manual review of verification sessions " +
        '(bearer token).',
    },
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    security: bearerSecurityScheme,
    readinessChecks: { database: () => deps.database.ping() },
    // Reported, not required: without Redis requests are served and rate limits fail open
    // (docs/decisions.md#redis-failures-fail-open).
    ...(redis === undefined ? {} : { optionalChecks: { redis: async () => void (await redis.ping()) } }),
  });

  app.register(sharedSchemas, {
    schemas: [
      SuccessOnly,
      SuccessMessage,
      ...accountSharedSchemas,
      ...notificationSharedSchemas,
      AvatarUploadResponseSchema,
      ...apiKeySharedSchemas,
      ...billingSharedSchemas,
      ...webhookSharedSchemas,
      ...webhookDeliverySharedSchemas,
      ...walletSharedSchemas,
      ...verificationSessionSharedSchemas,
      ...activationSharedSchemas,
      ...allowedOriginSharedSchemas,
      ...auditSharedSchemas,
      ...invitationSharedSchemas,
      ...organizationSharedSchemas,
      ...reviewSharedSchemas,
      ...consoleSessionSharedSchemas,
    ],
  });

  // CORS first: it answers preflight requests before authentication would refuse them.
  app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    maxAge: 600,
  });
  const verifyToken =
    deps.tokenVerifier ??
    createTokenVerifier({ keys: config.auth.keys, issuer: config.auth.issuer, audience: config.auth.audience, now });
  app.register(authentication, { verifyToken });
  app.register(rateLimiting, {
    defaultPerMinute: config.rateLimitPerMinute,
    namespace: 'main-api:rate-limit',
    identify: (request) => {
      const user = authenticatedUserOf(request);
      return user === null ? null : { key: `user:${user.id}` };
    },
    metrics: app.metrics,
    ...(redis === undefined ? {} : { redis }),
  });
  app.register(organizationAccess, { db, platformOrganizationId: config.platformOrganizationId });

  app.register(accountRoutes, { db, now });
  app.register(notificationRoutes, { db, now });
  app.register(avatarRoutes, { db, storage: deps.storage, maxBytes: config.avatars.maxBytes });
  app.register(apiKeyRoutes, { db, now, rateLimitMaxPerMinute: config.apiKeys.rateLimitMaxPerMinute });
  // One set of billing services for the API's billing routes and the dashboard's billing pages.
  const billing = createBillingServices({
    db,
    now,
    config: config.payments,
    publicUrl: config.publicUrl,
    log: app.log.child({ module: 'billing' }),
    metrics: app.metrics,
    ...(deps.providerTimeout === undefined ? {} : { providerTimeout: deps.providerTimeout }),
  });
  app.register(billingRoutes, {
    services: billing,
    publicUrl: config.publicUrl,
    bodyLimit: config.bodyLimitBytes,
    idempotencyPurgeIntervalMs: config.idempotencyPurgeIntervalMs,
    dashboardPaymentsPath: config.dashboard.oidc === undefined ? undefined : DASHBOARD_PAYMENTS_PATH,
  });
  app.register(webhookRoutes, { db, now, allowPrivateTargets: config.webhooks.allowPrivateTargets });
  app.register(webhookDeliveryRoutes, { db, now });
  app.register(walletRoutes, { db, now, testWalletCredit: config.testWalletCredit });
  // One vault: reviewers read identity documents from it, members the verified data sealed in it.
  const vault = deps.vault ?? documentVaultFromConfig(config.documents, { warn: (message) => app.log.warn(message) });
  app.register(verificationSessionRoutes, { db, now, platformOrganizationId: config.platformOrganizationId, vault });
  app.register(allowedOriginRoutes, { db, now });
  app.register(auditRoutes, { db });
  // One mail sender for the invitations of the API and of the dashboard's Team page (closed by invitationRoutes).
  const mail = deps.mail ?? createMailSender(config.mail);
  app.register(invitationRoutes, {
    db,
    now,
    publicUrl: config.publicUrl,
    mail,
    platformOrganizationId: config.platformOrganizationId,
  });
  app.register(organizationRoutes, {
    db,
    now,
    platformOrganizationId: config.platformOrganizationId,
    testWalletCredit: config.testWalletCredit,
    verificationRetention: config.verificationRetention,
  });
  const activation = {
    platformOrganizationId: config.platformOrganizationId,
    verifyUrl: config.activation.verifyUrl,
    decisionSource: config.activation.decisionSource,
    sessionTtlMs: config.activation.sessionTtlHours * 60 * 60 * 1000,
  };
  app.register(activationRoutes, { db, now, ...activation });
  // One review service for the review routes and the reviewers' console, which share one key (links, cookie).
  const reviewersKey = documentLinkKeyOf({ secret: config.reviewLinkSecret, keyring: config.documents.keyring });
  const reviews = createReviewService({
    db,
    now,
    vault,
    platformOrganizationId: config.platformOrganizationId,
    linkKey: reviewersKey,
    publicUrl: config.publicUrl,
    onDecided: reviewMetricsOf(app.metrics).observeDecision,
  });
  app.register(reviewRoutes, { service: reviews });
  app.register(consoleSessionRoutes, { db, now });
  app.register(reviewConsoleRoutes, {
    reviews,
    sessions: consoleSessionStoreOf(db),
    verifyToken,
    secret: reviewersKey.export(),
    publicUrl: config.publicUrl,
    now,
  });
  app.register(dashboardRoutes, {
    db,
    config: config.dashboard,
    verifyToken,
    publicUrl: config.publicUrl,
    mail,
    now,
    platformOrganizationId: config.platformOrganizationId,
    billing,
    testWalletCredit: config.testWalletCredit,
    developers: {
      rateLimitMaxPerMinute: config.apiKeys.rateLimitMaxPerMinute,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
    },
    activation,
  });

  return app;
}

export type MainApiApp = ReturnType<typeof buildApp>;

/**
 * Registers the schemas routes refer to by `$id` on the root instance, once, so OpenAPI lists each under its
 * name. Runs as a plugin, after createServer's plugins, so it sees (and skips) schemas they registered.
 */
const sharedSchemas = fp(
  async (app: FastifyInstance, { schemas }: { schemas: TSchema[] }) => {
    for (const schema of schemas) {
      if (schema.$id !== undefined && app.getSchema(schema.$id) === undefined) app.addSchema(schema);
    }
  },
  { name: 'main-api-shared-schemas' },
);
