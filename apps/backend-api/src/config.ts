import { createPrivateKey } from 'node:crypto';
import { type DocumentVaultConfig, DocumentVaultEnvSchema, documentVaultConfigFrom } from '@platform/document-vault';
import { ConfigError, type ConfigProblem, loadConfig, type ServiceConfig, serviceConfigOf } from '@platform/http';
import { LedgerEnvSchema } from '@platform/ledger';
import { retentionBoundsProblem, type VerificationRetentionBounds } from '@platform/organizations';
import { type Static, Type } from '@sinclair/typebox';
import type { FolderQuotas } from './modules/drive/index.js';
import { type DecisionTable, parseDecisionRules, usesDecisionSource } from './modules/verification/decisions/index.js';

/**
 * Environment variables read by backend-api. Property names are the variable names; loadConfig converts and
 * validates them. Rules spanning several variables are checked in loadBackendApiConfig, which answers them in the
 * shape the code uses (BackendApiConfig, camelCase, as main-api's).
 */
export const BackendApiEnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** PostgreSQL connections this instance may open (replicas x this must fit under max_connections). */
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  PGLITE_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  MIGRATE_ON_START: Type.Boolean({ default: false }),
  /** Requests per minute per API key without an override of its own, and per client IP without a valid key. */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  /** Take the client address from X-Forwarded-For (set behind a load balancer). */
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** How often this instance deletes idempotency records older than 24 h; 0 leaves it to other instances. */
  IDEMPOTENCY_PURGE_INTERVAL_MS: Type.Integer({ minimum: 0, default: 3_600_000 }),
  /** Drive folders allowed per organization and environment, by mail plan (none = no current subscription). */
  FOLDER_QUOTA_NONE: Type.Integer({ minimum: 0, default: 10 }),
  FOLDER_QUOTA_CORE: Type.Integer({ minimum: 0, default: 100 }),
  FOLDER_QUOTA_GROWTH: Type.Integer({ minimum: 0, default: 1_000 }),
  FOLDER_QUOTA_SCALE: Type.Integer({ minimum: 0, default: 10_000 }),
  /**
   * Where the hosted verification page is served (`{verify_url}`). Required with DATABASE_URL; without it
   * (embedded database, local runs) http://localhost:<PORT>.
   */
  VERIFY_URL: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
  /** Default price of a session in whole KES; an organization's own price in verification_prices wins. */
  VERIFICATION_PRICE_KYC: Type.Integer({ minimum: 1, default: 50 }),
  VERIFICATION_PRICE_KYB: Type.Integer({ minimum: 1, default: 200 }),
  /** A session still pending or awaiting input this long after creation expires and its hold is released. */
  VERIFICATION_SESSION_TTL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 24 }),
  /**
   * Days after a session's final status until its documents and submitted details are deleted; the hosted page's
   * consent notice states it (docs/decisions.md#consent-before-capture).
   */
  VERIFICATION_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  /**
   * The bounds an organization's own retention period must keep (docs/decisions.md#retention-per-organization): at
   * least a week, to export and review; at most 7 years, the record keeping Kenya's POCAMLA asks of reporting
   * institutions. main-api reads the same variables.
   */
  VERIFICATION_RETENTION_MIN_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 7 }),
  VERIFICATION_RETENTION_MAX_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 2555 }),
  /**
   * A PKCS#8 PEM Ed25519 private key that signs export manifests; unset: keys derived from the document vault's
   * (docs/decisions.md#verification-export).
   */
  VERIFICATION_EXPORT_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** How often this instance runs the retention job (the deletion after VERIFICATION_RETENTION_DAYS); 0 leaves it to other instances. */
  VERIFICATION_RETENTION_INTERVAL_MS: Type.Integer({ minimum: 0, default: 3_600_000 }),
  /** How often this instance runs the session expiry job; 0 leaves it to other instances. */
  VERIFICATION_EXPIRY_INTERVAL_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  /** The platform's own organization: its live kyc sessions set the kycStatus of the user they name. */
  PLATFORM_ORGANIZATION_ID: Type.Optional(Type.String({ format: 'uuid' })),
  /**
   * Allow sandbox decisions (the hosted page's buttons) on live sessions, for local use only: a `live:...=sandbox`
   * rule in VERIFICATION_DECISIONS is refused without it. Never in production.
   */
  HOSTED_PAGE_LIVE_SANDBOX: Type.Boolean({ default: false }),
  /**
   * What decides sessions, per environment and type: comma-separated `<environment>:<type>=<source>` rules
   * (environment live|test, type kyc|kyb|*, source sandbox|manual) over the defaults `test:*=sandbox,live:*=manual`
   * (docs/decisions.md#decision-sources).
   */
  VERIFICATION_DECISIONS: Type.Optional(Type.String()),
  /** Smile ID's partner id: required when a VERIFICATION_DECISIONS rule names smile_id (docs/decisions.md#automated-decisions). */
  SMILE_ID_PARTNER_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** Smile ID's API key: signs requests and checks Smile ID's signatures. Never logged. */
  SMILE_ID_API_KEY: Type.Optional(Type.String({ minLength: 8 })),
  /** Smile ID's v1 API; its sandbox by default. http only with WEBHOOK_ALLOW_PRIVATE_TARGETS (a local fake). */
  SMILE_ID_BASE_URL: Type.String({
    format: 'uri',
    pattern: '^https?://',
    default: 'https://testapi.smileidentity.com/v1',
  }),
  /** Where Smile ID sends results; by default VERIFY_URL (this service's public address) + /v1/providers/smile-id/callback. */
  SMILE_ID_CALLBACK_URL: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
  /** A job with no result this long after Smile ID took it is asked about (job status). */
  SMILE_ID_RECONCILE_AFTER_MS: Type.Integer({ minimum: 1_000, default: 300_000 }),
  /** A job with no result this long after its submission goes to manual review instead (Smile ID down or stuck). */
  SMILE_ID_FALLBACK_AFTER_MS: Type.Integer({ minimum: 1_000, default: 21_600_000 }),
  /** One call to Smile ID (connect, send the images, read the answer) must finish within this. */
  SMILE_ID_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 30_000 }),
  /** How often this instance runs the Smile ID job loop (create, retry, reconcile, fall back); 0 leaves it to other instances. */
  SMILE_ID_JOB_INTERVAL_MS: Type.Integer({ minimum: 0, default: 15_000 }),
  /**
   * Signs the hosted page's form tokens; every instance needs the same one. Required with DATABASE_URL;
   * without it (embedded database: one process) random per process.
   */
  HOSTED_PAGE_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ...DocumentVaultEnvSchema.properties,
  /** Allow http and private or loopback callback URLs (local runs and tests only). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  /** Run the callback delivery worker in this instance (every instance may: they share the work). */
  WEBHOOK_DELIVERY_ENABLED: Type.Boolean({ default: true }),
  /** How often to poll the outbox; a poll whose batch comes back full claims the next one at once. */
  WEBHOOK_DELIVERY_INTERVAL_MS: Type.Integer({ minimum: 10, default: 1_000 }),
  /** Events claimed and sent in parallel per poll. */
  WEBHOOK_DELIVERY_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  ...LedgerEnvSchema.properties,
});

type BackendApiEnv = Static<typeof BackendApiEnvSchema>;

type LogLevel = BackendApiEnv['LOG_LEVEL'];

/** The verification sessions, the hosted page and their jobs (modules/verification/settings.ts derives the rest). */
interface VerificationConfig {
  /** VERIFY_URL as set; unset: http://localhost:<port> (one local process). */
  verifyUrl?: string;
  /** Default prices per type, whole KES. */
  prices: { kyc: number; kyb: number };
  sessionTtlHours: number;
  expiryIntervalMs: number;
  /** Days after a final status until documents and submitted details are deleted: the default and its bounds. */
  retention: VerificationRetentionBounds;
  retentionIntervalMs: number;
  /** VERIFICATION_EXPORT_SIGNING_KEY as set (checked to be an Ed25519 private key). */
  exportSigningKey?: string;
  /** VERIFICATION_DECISIONS over the defaults, parsed here once. */
  decisions: DecisionTable;
  /** HOSTED_PAGE_LIVE_SANDBOX: sandbox decisions on live sessions (local use only). */
  liveSandbox: boolean;
  /** HOSTED_PAGE_SECRET as set; unset: random per process (one local process). */
  hostedPageSecret?: string;
}

/** Smile ID's adapter (docs/decisions.md#automated-decisions); the credentials only when set. */
interface SmileIdConfig {
  partnerId?: string;
  apiKey?: string;
  baseUrl: string;
  callbackUrl?: string;
  reconcileAfterMs: number;
  fallbackAfterMs: number;
  timeoutMs: number;
  jobIntervalMs: number;
}

/** backend-api's validated configuration, in the shape the code uses it. */
export interface BackendApiConfig extends ServiceConfig<LogLevel> {
  migrateOnStart: boolean;
  /** Whole KES a new test wallet starts with (TEST_WALLET_CREDIT; docs/decisions.md#test-credit). */
  testWalletCredit: number;
  /** How often this instance purges expired idempotency records; 0: never (another instance does). */
  idempotencyPurgeIntervalMs: number;
  /** Drive folders allowed per organization and environment, by mail plan. */
  folderQuotas: FolderQuotas;
  /** The platform's own organization: its live kyc sessions set the kycStatus of the user they name. */
  platformOrganizationId?: string;
  verification: VerificationConfig;
  smileId: SmileIdConfig;
  /** The identity-document vault (DOCUMENT_*). */
  documents: DocumentVaultConfig;
  /** Callbacks: whether their URLs may be http or private addresses (local runs and tests only), and the worker. */
  webhooks: {
    allowPrivateTargets: boolean;
    deliveryEnabled: boolean;
    deliveryIntervalMs: number;
    deliveryBatchSize: number;
  };
}

/** Reads and validates backend-api's configuration from `env`. Throws ConfigError naming every bad variable. */
export function loadBackendApiConfig(env: NodeJS.ProcessEnv = process.env): BackendApiConfig {
  const values = loadConfig(BackendApiEnvSchema, env);
  const problems: ConfigProblem[] = [];
  const decisions = decisionTable(values, problems);
  problems.push(...deploymentProblems(values), ...retentionProblems(values));
  // The same rules as main-api's, from the vault's package (docs/decisions.md#private-document-storage).
  const documents = documentVaultConfigFrom(values, problems, { deployed: values.DATABASE_URL !== undefined });
  if (problems.length > 0 || decisions === undefined || documents === undefined) throw new ConfigError(problems);
  return {
    ...serviceConfigOf(values),
    migrateOnStart: values.MIGRATE_ON_START,
    testWalletCredit: values.TEST_WALLET_CREDIT,
    idempotencyPurgeIntervalMs: values.IDEMPOTENCY_PURGE_INTERVAL_MS,
    folderQuotas: {
      none: values.FOLDER_QUOTA_NONE,
      core: values.FOLDER_QUOTA_CORE,
      growth: values.FOLDER_QUOTA_GROWTH,
      scale: values.FOLDER_QUOTA_SCALE,
    },
    ...(values.PLATFORM_ORGANIZATION_ID === undefined
      ? {}
      : { platformOrganizationId: values.PLATFORM_ORGANIZATION_ID }),
    verification: {
      ...(values.VERIFY_URL === undefined ? {} : { verifyUrl: values.VERIFY_URL }),
      prices: { kyc: values.VERIFICATION_PRICE_KYC, kyb: values.VERIFICATION_PRICE_KYB },
      sessionTtlHours: values.VERIFICATION_SESSION_TTL_HOURS,
      expiryIntervalMs: values.VERIFICATION_EXPIRY_INTERVAL_MS,
      retention: {
        defaultDays: values.VERIFICATION_RETENTION_DAYS,
        minDays: values.VERIFICATION_RETENTION_MIN_DAYS,
        maxDays: values.VERIFICATION_RETENTION_MAX_DAYS,
      },
      retentionIntervalMs: values.VERIFICATION_RETENTION_INTERVAL_MS,
      ...(values.VERIFICATION_EXPORT_SIGNING_KEY === undefined
        ? {}
        : { exportSigningKey: values.VERIFICATION_EXPORT_SIGNING_KEY }),
      decisions,
      liveSandbox: values.HOSTED_PAGE_LIVE_SANDBOX,
      ...(values.HOSTED_PAGE_SECRET === undefined ? {} : { hostedPageSecret: values.HOSTED_PAGE_SECRET }),
    },
    smileId: {
      ...(values.SMILE_ID_PARTNER_ID === undefined ? {} : { partnerId: values.SMILE_ID_PARTNER_ID }),
      ...(values.SMILE_ID_API_KEY === undefined ? {} : { apiKey: values.SMILE_ID_API_KEY }),
      baseUrl: values.SMILE_ID_BASE_URL,
      ...(values.SMILE_ID_CALLBACK_URL === undefined ? {} : { callbackUrl: values.SMILE_ID_CALLBACK_URL }),
      reconcileAfterMs: values.SMILE_ID_RECONCILE_AFTER_MS,
      fallbackAfterMs: values.SMILE_ID_FALLBACK_AFTER_MS,
      timeoutMs: values.SMILE_ID_TIMEOUT_MS,
      jobIntervalMs: values.SMILE_ID_JOB_INTERVAL_MS,
    },
    documents,
    webhooks: {
      allowPrivateTargets: values.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      deliveryEnabled: values.WEBHOOK_DELIVERY_ENABLED,
      deliveryIntervalMs: values.WEBHOOK_DELIVERY_INTERVAL_MS,
      deliveryBatchSize: values.WEBHOOK_DELIVERY_BATCH_SIZE,
    },
  };
}

/** The default retention must lie within the bounds an organization's own period keeps; an export key must be Ed25519. */
function retentionProblems(values: BackendApiEnv): ConfigProblem[] {
  const message = retentionBoundsProblem({
    defaultDays: values.VERIFICATION_RETENTION_DAYS,
    minDays: values.VERIFICATION_RETENTION_MIN_DAYS,
    maxDays: values.VERIFICATION_RETENTION_MAX_DAYS,
  });
  const problems: ConfigProblem[] = message === undefined ? [] : [{ name: 'VERIFICATION_RETENTION_DAYS', message }];
  const signingKey = values.VERIFICATION_EXPORT_SIGNING_KEY;
  if (signingKey !== undefined && !isEd25519PrivateKeyPem(signingKey)) {
    problems.push({
      name: 'VERIFICATION_EXPORT_SIGNING_KEY',
      message:
        'VERIFICATION_EXPORT_SIGNING_KEY must be a PKCS#8 PEM Ed25519 private key (openssl genpkey -algorithm ed25519)',
    });
  }
  return problems;
}

/** Whether `pem` is a PKCS#8 PEM Ed25519 private key, as the export signs with (docs/decisions.md#verification-export). */
function isEd25519PrivateKeyPem(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

/** VERIFICATION_DECISIONS over the defaults; a smile_id rule also needs Smile ID's settings. */
function decisionTable(values: BackendApiEnv, problems: ConfigProblem[]): DecisionTable | undefined {
  const parsed = parseDecisionRules(values.VERIFICATION_DECISIONS, { liveSandbox: values.HOSTED_PAGE_LIVE_SANDBOX });
  if (!parsed.ok) {
    problems.push({ name: 'VERIFICATION_DECISIONS', message: `VERIFICATION_DECISIONS: ${parsed.reason}` });
    return undefined;
  }
  if (usesDecisionSource(parsed.decisions, 'smile_id')) problems.push(...smileIdProblems(values));
  return parsed.decisions;
}

/** A smile_id rule needs the credentials, and a plain-http Smile ID (a local fake) is for local use only. */
function smileIdProblems(config: BackendApiEnv): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const name of ['SMILE_ID_PARTNER_ID', 'SMILE_ID_API_KEY'] as const) {
    if (config[name] === undefined) {
      problems.push({ name, message: `${name} is required when VERIFICATION_DECISIONS gives sessions to smile_id` });
    }
  }
  if (config.SMILE_ID_BASE_URL.startsWith('http://') && !config.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    problems.push({
      name: 'SMILE_ID_BASE_URL',
      message:
        'SMILE_ID_BASE_URL must be https: identity documents never travel in the clear (http only for a local fake, ' +
        'with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
    });
  }
  return problems;
}

/**
 * On an external database the service is deployed, usually as several instances: settings whose fallback only
 * suits one local process must then be chosen, or it would answer localhost URLs and refuse other instances'
 * hosted-page forms.
 */
function deploymentProblems(config: BackendApiEnv): ConfigProblem[] {
  if (config.DATABASE_URL === undefined) return [];
  const problems: ConfigProblem[] = [];
  if (config.VERIFY_URL === undefined) {
    problems.push({
      name: 'VERIFY_URL',
      message:
        'VERIFY_URL is required when DATABASE_URL is set: the public address of the hosted verification page ' +
        `(verificationUrl would otherwise be http://localhost:${config.PORT}/session/<id>)`,
    });
  }
  if (config.HOSTED_PAGE_SECRET === undefined) {
    problems.push({
      name: 'HOSTED_PAGE_SECRET',
      message:
        'HOSTED_PAGE_SECRET is required when DATABASE_URL is set: 32+ characters, the same on every instance ' +
        '(a random one per process breaks hosted-page forms behind a load balancer)',
    });
  }
  return problems;
}
