import type { DatabaseHandle } from '@platform/db';
import { type DocumentVault, documentVaultFromConfig } from '@platform/document-vault';
import { createServer } from '@platform/http';
import { rateLimiting } from '@platform/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { BackendApiConfig } from './config.js';
import { driveRoutes } from './modules/drive/index.js';
import { documentRoutes } from './modules/verification/documents/index.js';
import { exportRoutes, exportSigningKeysOf } from './modules/verification/export/index.js';
import { hostedPageRoutes } from './modules/verification/hosted-page/index.js';
import { verificationMetricsOf, verificationRoutes, verificationSettingsOf } from './modules/verification/index.js';
import { createSmileIdDecisions, smileIdRoutes, smileIdSettingsOf } from './modules/verification/smile-id/index.js';
import { walletRoutes } from './modules/wallet/index.js';
import { API_KEY_HEADER, apiKeyAuthentication, apiKeyOf } from './plugins/api-key-authentication.js';
import { idempotentRequests } from './plugins/idempotency.js';
import { webhookDelivery } from './plugins/webhook-delivery.js';

export interface BackendApiDeps {
  database: DatabaseHandle;
  /** Shares rate-limit counters between instances; reported by /readyz. */
  redis?: Redis;
  logger?: FastifyBaseLogger;
  /** The service's clock; defaults to the system time. Tests move it instead of sleeping. */
  now?: () => Date;
  /** Stores that API keys were used; defaults to touchApiKeys on the database. Tests count or hold the writes. */
  recordApiKeyUses?: (ids: string[], now: Date, intervalMs: number) => Promise<unknown>;
  /** Where identity documents are kept, encrypted; defaults to the one DOCUMENT_* configure. Tests pass their own. */
  vault?: DocumentVault;
  /** Starts the time limit of each call to Smile ID; AbortSignal.timeout by default. Tests time calls out by hand. */
  smileIdTimeout?: (ms: number) => AbortSignal;
}

export const SERVICE_VERSION = '0.1.0';

/** Builds the API-key service: verification sessions, their documents and drive folders. Never listens. */
export function buildApp(deps: BackendApiDeps, config: BackendApiConfig) {
  const redis = deps.redis;

  const app = createServer({
    service: {
      name: 'backend-api',
      version: SERVICE_VERSION,
      description:
        "The API-key interface: identity-verification sessions and drive folders, called from customers' servers.",
    },
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    security: {
      apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
    },
    readinessChecks: { database: () => deps.database.ping() },
    // Reported, not required: without Redis requests are served and rate limits fail open
    // (docs/decisions.md#redis-failures-fail-open).
    ...(redis === undefined ? {} : { optionalChecks: { redis: async () => void (await redis.ping()) } }),
  });

  const now = deps.now ?? (() => new Date());
  app.register(apiKeyAuthentication, {
    db: deps.database.db,
    now,
    ...(deps.recordApiKeyUses === undefined ? {} : { recordUses: deps.recordApiKeyUses }),
  });
  app.register(rateLimiting, {
    defaultPerMinute: config.rateLimitPerMinute,
    namespace: 'backend-api:rate-limit',
    identify: (request) => {
      const apiKey = apiKeyOf(request);
      if (apiKey === null) return null;
      return {
        key: `apikey:${apiKey.id}`,
        ...(apiKey.rateLimitPerMinute === null ? {} : { perMinute: apiKey.rateLimitPerMinute }),
      };
    },
    metrics: app.metrics,
    ...(redis === undefined ? {} : { redis }),
  });
  app.register(idempotentRequests, {
    db: deps.database.db,
    now,
    purgeIntervalMs: config.idempotencyPurgeIntervalMs,
    onReplay: () => app.metrics.idempotentReplays.inc(),
  });
  app.register(driveRoutes, { db: deps.database.db, now, quotas: config.folderQuotas });
  const verification = verificationSettingsOf(config);
  app.register(walletRoutes, { db: deps.database.db, testWalletCredit: config.testWalletCredit });
  const verificationMetrics = verificationMetricsOf(app.metrics, {
    db: deps.database.db,
    now,
    onCountFailed: (error) => app.log.warn({ err: error }, 'counting verification sessions for /metrics failed'),
  });
  const vault = deps.vault ?? documentVaultFromConfig(config.documents, { warn: (message) => app.log.warn(message) });
  app.register(verificationRoutes, {
    db: deps.database.db,
    now,
    vault,
    ...verification,
    onDecided: verificationMetrics.observeDecision,
  });
  // Smile ID decides the sessions VERIFICATION_DECISIONS gives it (docs/decisions.md#automated-decisions); with its
  // credentials set, its callback and job loop also serve sessions given to it before a configuration change.
  const smileIdSettings = smileIdSettingsOf(config, verification.verifyUrl);
  const smileId =
    smileIdSettings === undefined
      ? undefined
      : createSmileIdDecisions({
          db: deps.database.db,
          vault,
          now,
          settings: smileIdSettings,
          metrics: app.metrics,
          logger: app.log,
          lifecycle: {
            platformOrganizationId: verification.platformOrganizationId,
            onDecided: verificationMetrics.observeDecision,
          },
          timeout: deps.smileIdTimeout,
          directors: { decisions: verification.decisions, ttlMs: verification.sessionTtlMs },
        });
  app.register(hostedPageRoutes, {
    db: deps.database.db,
    now,
    vault,
    ...verification,
    onDecided: verificationMetrics.observeDecision,
    submissions: smileId?.submissions,
  });
  app.register(documentRoutes, {
    db: deps.database.db,
    now,
    vault,
    verifyUrl: verification.verifyUrl,
    platformOrganizationId: verification.platformOrganizationId,
    onDecided: verificationMetrics.observeDecision,
    retention: verification.retention,
    retentionIntervalMs: verification.retentionIntervalMs,
    submissions: smileId?.submissions,
  });
  app.register(exportRoutes, {
    db: deps.database.db,
    now,
    vault,
    signing: exportSigningKeysOf({ pem: config.verification.exportSigningKey, keyring: config.documents.keyring }),
  });
  if (smileId !== undefined) app.register(smileIdRoutes, { decisions: smileId });
  app.register(webhookDelivery, {
    db: deps.database.db,
    now,
    enabled: config.webhooks.deliveryEnabled,
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    intervalMs: config.webhooks.deliveryIntervalMs,
    batchSize: config.webhooks.deliveryBatchSize,
  });
  return app;
}

export type BackendApp = ReturnType<typeof buildApp>;
