import path from 'node:path';
import { type DocumentVaultConfig, DocumentVaultEnvSchema, documentVaultConfigFrom } from '@platform/document-vault';
import {
  ConfigError,
  type ConfigProblem,
  httpUrl,
  loadConfig,
  type ServiceConfig,
  serviceConfigOf,
} from '@platform/http';
import { LedgerEnvSchema } from '@platform/ledger';
import { retentionBoundsProblem, type VerificationRetentionBounds } from '@platform/organizations';
import { type Static, Type } from '@sinclair/typebox';
import { API_KEY_RATE_LIMIT_MAX } from './modules/api-keys/index.js';
import { type PaymentsConfig, PaymentsEnvSchema, paymentsConfigFrom } from './modules/billing/index.js';
import { type DashboardConfig, DashboardEnvSchema, dashboardConfigFrom } from './modules/dashboard/index.js';

const MEBIBYTE = 1024 * 1024;
const DEFAULT_MAIL_FROM = 'Platform <no-reply@localhost>';

/**
 * Environment variables read by main-api. Property names are the variable names; loadConfig converts and
 * validates them. Rules spanning several variables are checked in loadMainApiConfig.
 */
export const MainApiEnvSchema = Type.Object({
  /**
   * The verification retention default and the bounds an organization's own period keeps: the variables
   * backend-api reads, with its defaults (docs/decisions.md#retention-per-organization).
   */
  VERIFICATION_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  VERIFICATION_RETENTION_MIN_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 7 }),
  VERIFICATION_RETENTION_MAX_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 2555 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** PostgreSQL connections this instance may open (replicas x this must fit under max_connections). */
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  PGLITE_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  AUTH_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  AUTH_JWKS_URL: Type.Optional(Type.String({ minLength: 1 })),
  AUTH_ISSUER: Type.String({ minLength: 1 }),
  AUTH_AUDIENCE: Type.String({ minLength: 1 }),
  CORS_ORIGINS: Type.Optional(Type.String()),
  /**
   * Base URL clients reach this service at (avatar links, the card checkout's return, the M-Pesa callback).
   * Required with DATABASE_URL; without it (embedded database, local runs) http://localhost:<PORT>.
   */
  PUBLIC_URL: Type.Optional(Type.String({ minLength: 1 })),
  AVATAR_STORAGE: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  AVATAR_LOCAL_DIR: Type.Optional(Type.String({ minLength: 1 })),
  S3_ENDPOINT: Type.Optional(Type.String({ minLength: 1 })),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 1 })),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_PUBLIC_URL: Type.Optional(Type.String({ minLength: 1 })),
  AVATAR_MAX_BYTES: Type.Integer({ minimum: 1, default: 5 * MEBIBYTE }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1, default: MEBIBYTE }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 300 }),
  /**
   * The highest rateLimitPerMinute a member may give an API key, for organizations without a maximum of their
   * own (organizations.max_key_rate_limit_per_minute, set with backend-api's organizations command).
   */
  API_KEY_RATE_LIMIT_MAX_PER_MINUTE: Type.Integer({ minimum: 1, maximum: API_KEY_RATE_LIMIT_MAX, default: 600 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  MIGRATE_ON_START: Type.Boolean({ default: false }),
  /** How often this instance deletes idempotency records older than 24 h; 0 leaves it to other instances. */
  IDEMPOTENCY_PURGE_INTERVAL_MS: Type.Integer({ minimum: 0, default: 3_600_000 }),
  /** Accept http and private or loopback default callback URLs (local runs and tests only). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  /** The SMTP server invitations are sent through: smtp://user:password@host:port (smtps:// for TLS from the start). */
  SMTP_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The sender of main-api's emails. */
  MAIL_FROM: Type.String({ minLength: 3, default: DEFAULT_MAIL_FROM }),
  /** Without SMTP_URL: a folder where each email is written as an .eml file instead (the local start). */
  MAIL_OUTBOX_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * The platform's own organization: its members with the role `reviewer` decide the verification sessions sent to
   * manual review, and only there may anyone be given that role (docs/decisions.md#manual-review). Unset: the review
   * routes answer 403 to everyone and no one can be made a reviewer. backend-api reads the same variable.
   */
  PLATFORM_ORGANIZATION_ID: Type.Optional(Type.String({ format: 'uuid' })),
  /**
   * Signs the reviewers' document links (5 minutes each); every instance needs the same one. Unset: derived from
   * DOCUMENT_ENCRYPTION_KEY's current key (which every instance shares already), or random per process without one.
   */
  REVIEW_LINK_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /**
   * Where backend-api serves the hosted verification page (its VERIFY_URL): the activation session's URL is
   * `<VERIFY_URL>/session/<id>`. Unset: the activation answers no URL (docs/decisions.md#going-live).
   */
  VERIFY_URL: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
  /**
   * Who decides the activation sessions (the platform's live KYB sessions of its customers): its reviewers
   * (`manual`), Smile ID (`smile_id`, when backend-api decides kyb with it), or the hosted page's sandbox buttons
   * (`sandbox`, local runs with HOSTED_PAGE_LIVE_SANDBOX only). Keep it what VERIFICATION_DECISIONS gives live:kyb.
   */
  ACTIVATION_DECISION_SOURCE: Type.Union([Type.Literal('manual'), Type.Literal('smile_id'), Type.Literal('sandbox')], {
    default: 'manual',
  }),
  /** How long an activation session stays open for the owner to finish it. */
  ACTIVATION_SESSION_TTL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 168 }),
  /** Identity documents, read by reviewers: the same variables and values as backend-api's, which stores them. */
  ...DocumentVaultEnvSchema.properties,
  ...PaymentsEnvSchema.properties,
  ...LedgerEnvSchema.properties,
  /** The customers' dashboard: its identity provider and cookie (modules/dashboard/config.ts). */
  ...DashboardEnvSchema.properties,
});

export type MainApiEnv = Static<typeof MainApiEnvSchema>;

export type LogLevel = MainApiEnv['LOG_LEVEL'];

/**
 * How bearer tokens are verified: a shared HS256 secret, the identity provider's JWKS (RS256/ES256), or both (each
 * token judged by the one its `alg` names; docs/decisions.md#dashboard-sign-in).
 */
export type TokenKeySource =
  | { kind: 'secret'; secret: string }
  | { kind: 'jwks'; jwksUrl: URL }
  | { kind: 'secretAndJwks'; secret: string; jwksUrl: URL };

export type S3StorageConfig = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  publicUrl: string;
};

export type AvatarStorageConfig = { kind: 'local'; directory: string } | ({ kind: 's3' } & S3StorageConfig);

/** Where emails go: an SMTP server, a folder of .eml files, or nowhere (the inviter shares the accept URL). */
type MailTransportConfig = { kind: 'smtp'; url: string } | { kind: 'outbox'; directory: string } | { kind: 'none' };

export type MailConfig = { transport: MailTransportConfig; from: string };

/** main-api's validated configuration, in the shape the code uses it. */
export interface MainApiConfig extends ServiceConfig<LogLevel> {
  auth: { keys: TokenKeySource; issuer: string; audience: string };
  corsOrigins: string[];
  /** Base URL clients reach this service at, without a trailing slash. */
  publicUrl: string;
  avatars: { storage: AvatarStorageConfig; maxBytes: number };
  /** API key management: the per-key rate limit a member may choose unless the organization has its own maximum. */
  apiKeys: { rateLimitMaxPerMinute: number };
  migrateOnStart: boolean;
  /** Whole KES a new test wallet starts with (TEST_WALLET_CREDIT; docs/decisions.md#test-credit). */
  testWalletCredit: number;
  /** The verification retention default and its bounds (docs/decisions.md#retention-per-organization). */
  verificationRetention: VerificationRetentionBounds;
  /** Going live (docs/decisions.md#going-live): the activation sessions' hosted page, decision source and lifetime. */
  activation: { verifyUrl?: string; decisionSource: 'manual' | 'smile_id' | 'sandbox'; sessionTtlHours: number };
  /** How often this instance purges expired idempotency records; 0: never (another instance does). */
  idempotencyPurgeIntervalMs: number;
  /** Callback settings: whether default URLs may be http or private addresses (local runs and tests only). */
  webhooks: { allowPrivateTargets: boolean };
  /** Invitation emails (docs/decisions.md#invitations). */
  mail: MailConfig;
  /** Payment providers, limits and reconciliation (modules/billing/config.ts). */
  payments: PaymentsConfig;
  /** The platform's own organization, where reviewers are (docs/decisions.md#manual-review); unset: none. */
  platformOrganizationId?: string;
  /** The identity-document vault reviewers read from (DOCUMENT_*, read as backend-api reads them). */
  documents: DocumentVaultConfig;
  /** REVIEW_LINK_SECRET; unset: derived from the document key (modules/reviews/document-links.ts). */
  reviewLinkSecret?: string;
  /** The customers' dashboard (DASHBOARD_*; docs/decisions.md#dashboard-sign-in): off without an identity provider. */
  dashboard: DashboardConfig;
}

/**
 * Reads and validates main-api's configuration from `env`. Throws ConfigError naming every bad variable.
 * `cwd` anchors the default avatar folder.
 */
export function loadMainApiConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): MainApiConfig {
  const values = loadConfig(MainApiEnvSchema, env);
  const problems: ConfigProblem[] = [];

  // On an external database the service is deployed, usually as several instances: a fallback that only suits
  // one local process (a localhost URL, a random secret per process) must then be chosen instead.
  const deployed = values.DATABASE_URL !== undefined;
  const keys = tokenKeySource(values, problems);
  const publicUrl = publicUrlOf(values, deployed, problems);
  const storage = avatarStorage(values, cwd, problems);
  const payments = paymentsConfigFrom(values, publicUrl, problems, { deployed });
  const mail = mailConfig(values, cwd, problems);
  const documents = documentVaultConfigFrom(values, problems, { deployed, cwd });
  const dashboard = dashboardConfigFrom(values, problems, { deployed });
  const verificationRetention = {
    defaultDays: values.VERIFICATION_RETENTION_DAYS,
    minDays: values.VERIFICATION_RETENTION_MIN_DAYS,
    maxDays: values.VERIFICATION_RETENTION_MAX_DAYS,
  };
  const retentionProblem = retentionBoundsProblem(verificationRetention);
  if (retentionProblem !== undefined) problems.push({ name: 'VERIFICATION_RETENTION_DAYS', message: retentionProblem });

  if (
    problems.length > 0 ||
    keys === undefined ||
    storage === undefined ||
    publicUrl === undefined ||
    payments === undefined ||
    mail === undefined ||
    documents === undefined ||
    dashboard === undefined
  ) {
    throw new ConfigError(problems);
  }

  return {
    ...serviceConfigOf(values),
    auth: { keys, issuer: values.AUTH_ISSUER, audience: values.AUTH_AUDIENCE },
    corsOrigins: parseOriginList(values.CORS_ORIGINS),
    publicUrl,
    avatars: { storage, maxBytes: values.AVATAR_MAX_BYTES },
    apiKeys: { rateLimitMaxPerMinute: values.API_KEY_RATE_LIMIT_MAX_PER_MINUTE },
    migrateOnStart: values.MIGRATE_ON_START,
    testWalletCredit: values.TEST_WALLET_CREDIT,
    verificationRetention,
    activation: {
      ...(values.VERIFY_URL === undefined ? {} : { verifyUrl: values.VERIFY_URL.replace(/\/+$/, '') }),
      decisionSource: values.ACTIVATION_DECISION_SOURCE,
      sessionTtlHours: values.ACTIVATION_SESSION_TTL_HOURS,
    },
    idempotencyPurgeIntervalMs: values.IDEMPOTENCY_PURGE_INTERVAL_MS,
    webhooks: { allowPrivateTargets: values.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    mail,
    payments,
    ...(values.PLATFORM_ORGANIZATION_ID === undefined
      ? {}
      : { platformOrganizationId: values.PLATFORM_ORGANIZATION_ID }),
    documents,
    ...(values.REVIEW_LINK_SECRET === undefined ? {} : { reviewLinkSecret: values.REVIEW_LINK_SECRET }),
    dashboard,
  };
}

function tokenKeySource(values: MainApiEnv, problems: ConfigProblem[]): TokenKeySource | undefined {
  const { AUTH_JWT_SECRET: secret, AUTH_JWKS_URL: jwksUrl } = values;
  if (jwksUrl !== undefined) {
    const url = httpUrl('AUTH_JWKS_URL', jwksUrl, problems);
    if (url === undefined) return undefined;
    return secret === undefined
      ? { kind: 'jwks', jwksUrl: new URL(url) }
      : { kind: 'secretAndJwks', secret, jwksUrl: new URL(url) };
  }
  if (secret !== undefined) return { kind: 'secret', secret };
  problems.push({
    name: 'AUTH_JWT_SECRET',
    message: 'one of AUTH_JWT_SECRET (HS256, at least 32 characters) and AUTH_JWKS_URL is required',
  });
  return undefined;
}

function publicUrlOf(values: MainApiEnv, deployed: boolean, problems: ConfigProblem[]): string | undefined {
  if (values.PUBLIC_URL !== undefined) return httpUrl('PUBLIC_URL', values.PUBLIC_URL, problems);
  if (!deployed) return `http://localhost:${values.PORT}`;
  problems.push({
    name: 'PUBLIC_URL',
    message:
      'PUBLIC_URL is required when DATABASE_URL is set: the public address of this service ' +
      `(avatar links, the card checkout's return and the M-Pesa callback would otherwise go to http://localhost:${values.PORT})`,
  });
  return undefined;
}

function avatarStorage(values: MainApiEnv, cwd: string, problems: ConfigProblem[]): AvatarStorageConfig | undefined {
  if (values.AVATAR_STORAGE === 'local') {
    return { kind: 'local', directory: path.resolve(cwd, values.AVATAR_LOCAL_DIR ?? '.data/avatars') };
  }
  const missing = (['S3_BUCKET', 'S3_PUBLIC_URL'] as const).filter((name) => values[name] === undefined);
  for (const name of missing) problems.push({ name, message: `${name} is required when AVATAR_STORAGE is s3` });
  if ((values.S3_ACCESS_KEY_ID === undefined) !== (values.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push({
      name: 'S3_ACCESS_KEY_ID',
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    });
  }
  const endpoint = values.S3_ENDPOINT === undefined ? undefined : httpUrl('S3_ENDPOINT', values.S3_ENDPOINT, problems);
  const publicUrl =
    values.S3_PUBLIC_URL === undefined ? undefined : httpUrl('S3_PUBLIC_URL', values.S3_PUBLIC_URL, problems);
  if (values.S3_BUCKET === undefined || publicUrl === undefined) return undefined;
  return {
    kind: 's3',
    region: values.S3_REGION,
    bucket: values.S3_BUCKET,
    publicUrl,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(values.S3_ACCESS_KEY_ID === undefined ? {} : { accessKeyId: values.S3_ACCESS_KEY_ID }),
    ...(values.S3_SECRET_ACCESS_KEY === undefined ? {} : { secretAccessKey: values.S3_SECRET_ACCESS_KEY }),
  };
}

/**
 * SMTP_URL wins over MAIL_OUTBOX_DIR (a local start pointed at a real server sends through it). A bad SMTP_URL is
 * named without its value: it may carry the server's password.
 */
function mailConfig(values: MainApiEnv, cwd: string, problems: ConfigProblem[]): MailConfig | undefined {
  const from = values.MAIL_FROM;
  if (/[\r\n]/.test(from) || !/\S@\S/.test(from)) {
    problems.push({
      name: 'MAIL_FROM',
      message: 'MAIL_FROM must be an email address, optionally with a name: "Platform <no-reply@example.com>"',
    });
    return undefined;
  }
  if (values.SMTP_URL !== undefined) {
    const url = URL.canParse(values.SMTP_URL) ? new URL(values.SMTP_URL) : undefined;
    if (url === undefined || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
      problems.push({ name: 'SMTP_URL', message: 'SMTP_URL must be an smtp:// or smtps:// URL with a host' });
      return undefined;
    }
    return { transport: { kind: 'smtp', url: values.SMTP_URL }, from };
  }
  if (values.MAIL_OUTBOX_DIR !== undefined) {
    return { transport: { kind: 'outbox', directory: path.resolve(cwd, values.MAIL_OUTBOX_DIR) }, from };
  }
  return { transport: { kind: 'none' }, from };
}

function parseOriginList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin.length > 0);
}
