import { randomBytes } from 'node:crypto';
import type { ServiceName } from '../endpoints.js';

export interface ServiceEnvInput {
  databaseUrl: string;
  redisUrl: string;
  port: number;
  jwtSecret: string;
  avatarDir: string;
  /** Where both services keep identity documents (the hosted page and reviewers read the same vault). */
  documentDir: string;
  /** The platform's own organization, whose reviewers decide sessions (both services read it). */
  platformOrganizationId: string;
  logLevel: string;
}

export const TOKEN_ISSUER = 'http://localhost/bench';
export const TOKEN_AUDIENCE = 'platform-bench';
/** Well above anything a run sends, so the limiter counts (one Redis call per request) but never refuses. */
const BENCH_RATE_LIMIT_PER_MINUTE = '100000000';
const UNLIMITED_FOLDERS = '100000000';
/** One per run, shared by every backend-api process of the run (required on DATABASE_URL). */
const HOSTED_PAGE_SECRET = randomBytes(32).toString('base64url');
/** One per run, shared by every main-api process of the run (required on DATABASE_URL with the sandbox card). */
const SANDBOX_CHECKOUT_SECRET = randomBytes(32).toString('base64url');
/** One per run, shared by every main-api process of the run and the bench, which seals the dashboard row's cookie. */
export const DASHBOARD_SESSION_SECRET = randomBytes(32).toString('base64url');
/**
 * The dashboard is on when an identity provider is named; this one is never asked (discovery waits for a sign-in,
 * and the bench's browser is signed in by a sealed cookie: environment.ts).
 */
const DASHBOARD_OIDC_ISSUER = 'http://127.0.0.1:9/bench-identity-provider';
/** One per run, shared by both services (required on DATABASE_URL: reviewers read what backend-api sealed). */
const DOCUMENT_ENCRYPTION_KEY = `bench:${randomBytes(32).toString('base64')}`;

/**
 * The environment each service runs with in the bench: production defaults, except raised rate limits and
 * folder quotas, and no callback delivery (sessions created by the bench have no callback URL, and the
 * worker's polling would be load no request caused).
 */
export function serviceEnv(service: ServiceName, input: ServiceEnvInput): NodeJS.ProcessEnv {
  const common = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(input.port),
    LOG_LEVEL: input.logLevel,
    DATABASE_URL: input.databaseUrl,
    REDIS_URL: input.redisUrl,
    RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT_PER_MINUTE,
    DOCUMENT_ENCRYPTION_KEY,
    DOCUMENT_STORAGE: 'local',
    DOCUMENT_LOCAL_DIR: input.documentDir,
    PLATFORM_ORGANIZATION_ID: input.platformOrganizationId,
  };
  if (service === 'main-api') {
    return {
      ...common,
      AUTH_JWT_SECRET: input.jwtSecret,
      AUTH_ISSUER: TOKEN_ISSUER,
      AUTH_AUDIENCE: TOKEN_AUDIENCE,
      AVATAR_STORAGE: 'local',
      AVATAR_LOCAL_DIR: input.avatarDir,
      PUBLIC_URL: `http://127.0.0.1:${input.port}`,
      SANDBOX_CHECKOUT_SECRET,
      DASHBOARD_OIDC_ISSUER,
      DASHBOARD_OIDC_CLIENT_ID: 'bench',
      DASHBOARD_SESSION_SECRET,
    };
  }
  return {
    ...common,
    VERIFY_URL: `http://127.0.0.1:${input.port}`,
    HOSTED_PAGE_SECRET,
    WEBHOOK_DELIVERY_ENABLED: 'false',
    FOLDER_QUOTA_NONE: UNLIMITED_FOLDERS,
    FOLDER_QUOTA_CORE: UNLIMITED_FOLDERS,
    FOLDER_QUOTA_GROWTH: UNLIMITED_FOLDERS,
    FOLDER_QUOTA_SCALE: UNLIMITED_FOLDERS,
  };
}

/** The same settings for an in-process copy that only records SQL: no Redis, no timers of its own. */
export function recordingEnv(service: ServiceName, input: ServiceEnvInput): NodeJS.ProcessEnv {
  const env = serviceEnv(service, input);
  delete env.REDIS_URL;
  return {
    ...env,
    LOG_LEVEL: 'silent',
    IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
    VERIFICATION_EXPIRY_INTERVAL_MS: '0',
    VERIFICATION_RETENTION_INTERVAL_MS: '0',
    PAYMENT_RECONCILE_INTERVAL_MS: '0',
  };
}
