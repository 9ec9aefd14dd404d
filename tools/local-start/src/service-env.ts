import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '@platform/http';
import { Type } from '@sinclair/typebox';
import { API_SCOPE, DASHBOARD_CLIENT_ID } from './identity-provider/provider.js';

/** How both services are configured for a local run; the same variables production sets. */
export interface LocalSettings {
  host: string;
  mainPort: string;
  backendPort: string;
  logLevel: string;
  jwtSecret: string;
  issuer: string;
  audience: string;
  dataDir: string;
  /** DOCUMENT_ENCRYPTION_KEY, kept in the data folder's secrets.json. */
  documentKey: string;
  platformOrganizationId: string;
  /** Set when the services run as their own processes on PostgreSQL and Redis. */
  databaseUrl?: string;
  redisUrl?: string;
  /** backend-api's Smile ID variables, when the fake Smile ID runs (smile-id.ts). */
  smileIdEnv?: NodeJS.ProcessEnv;
  /** The local identity provider's JWKS (identity-provider/provider.ts); its issuer is `issuer`. */
  jwksUrl?: string;
}

/**
 * WEBHOOK_ALLOW_PRIVATE_TARGETS for both services: the caller's value when one is set (`false` to try the SSRF
 * guard locally), else true, so that callbacks can reach a receiver on this machine (http://localhost:...).
 */
export function privateTargetsSetting(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEBHOOK_ALLOW_PRIVATE_TARGETS?.trim() || 'true';
}

/** Whether the setting in force lets callbacks reach private and loopback addresses, read as the services read it. */
export function allowsPrivateTargets(env: NodeJS.ProcessEnv = process.env): boolean {
  const schema = Type.Object({ WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean() });
  return loadConfig(schema, { WEBHOOK_ALLOW_PRIVATE_TARGETS: privateTargetsSetting(env) })
    .WEBHOOK_ALLOW_PRIVATE_TARGETS;
}

/** What decides sessions on the local start, as production does by default: the caller's rules when set. */
export const LOCAL_DECISIONS = 'test:*=sandbox,live:*=manual';

/** With VERIFICATION_PROVIDER_KYC=smile_id: Smile ID (the fake) decides kyc sessions, kyb ones as by default. */
const SMILE_ID_KYC_DECISIONS = 'test:kyc=smile_id,live:kyc=smile_id,test:kyb=sandbox,live:kyb=manual';

/**
 * VERIFICATION_DECISIONS for backend-api: the caller's value when one is set; else Smile ID for kyc sessions when
 * VERIFICATION_PROVIDER_KYC=smile_id; else the sandbox buttons for test sessions and a reviewer for live ones, so a
 * live session is finished the way production finishes it.
 */
export function verificationDecisionsSetting(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.VERIFICATION_DECISIONS?.trim();
  if (set) return set;
  return env.VERIFICATION_PROVIDER_KYC?.trim() === 'smile_id' ? SMILE_ID_KYC_DECISIONS : LOCAL_DECISIONS;
}

/** Where main-api writes its emails (invitations) as .eml files, unless SMTP_URL sends them: `<data dir>/outbox`. */
export function mailOutboxDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.MAIL_OUTBOX_DIR?.trim() || path.join(dataDir, 'outbox');
}

/**
 * The identity-document settings, the same for both services: backend-api stores documents and main-api's reviewers
 * read them, so both need the one key (kept between runs in secrets.json) and the one folder.
 */
function documentEnv(s: LocalSettings): NodeJS.ProcessEnv {
  return {
    DOCUMENT_ENCRYPTION_KEY: process.env.DOCUMENT_ENCRYPTION_KEY || s.documentKey,
    DOCUMENT_STORAGE: 'local',
    DOCUMENT_LOCAL_DIR: path.join(s.dataDir, 'documents'),
  };
}

/** The demo organization plays the platform: its reviewers decide live sessions, its users' kycStatus follows. */
function platformOrganizationId(s: LocalSettings): string {
  return process.env.PLATFORM_ORGANIZATION_ID || s.platformOrganizationId;
}

export function mainApiEnv(s: LocalSettings): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: s.mainPort,
    HOST: s.host,
    LOG_LEVEL: s.logLevel,
    DATABASE_URL: s.databaseUrl ?? '',
    REDIS_URL: s.redisUrl ?? '',
    // Both the credentials file's HS256 tokens and the local identity provider's RS256 ones, one issuer
    // (docs/decisions.md#dashboard-sign-in).
    AUTH_JWT_SECRET: s.jwtSecret,
    AUTH_JWKS_URL: s.jwksUrl ?? '',
    AUTH_ISSUER: s.issuer,
    AUTH_AUDIENCE: s.audience,
    // The dashboard signs in through the local identity provider.
    ...(s.jwksUrl === undefined
      ? {}
      : {
          DASHBOARD_OIDC_ISSUER: s.issuer,
          DASHBOARD_OIDC_CLIENT_ID: DASHBOARD_CLIENT_ID,
          DASHBOARD_OIDC_SCOPES: `openid email profile ${API_SCOPE}`,
          DASHBOARD_SESSION_SECRET: process.env.DASHBOARD_SESSION_SECRET || randomBytes(32).toString('base64url'),
        }),
    AVATAR_STORAGE: 'local',
    AVATAR_LOCAL_DIR: path.join(s.dataDir, 'avatars'),
    // Emails land in a folder (SMTP_URL, when the caller sets it, wins).
    MAIL_OUTBOX_DIR: mailOutboxDir(s.dataDir),
    // Callbacks and default callback URLs may point at this machine (http://localhost:...), unless the caller says no.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: privateTargetsSetting(),
    // main-api on DATABASE_URL refuses to start without these; one local process needs no shared secret.
    PUBLIC_URL: process.env.MAIN_PUBLIC_URL || `http://localhost:${s.mainPort}`,
    SANDBOX_CHECKOUT_SECRET: process.env.SANDBOX_CHECKOUT_SECRET || randomBytes(32).toString('base64url'),
    // The demo organization's reviewer (reviewerToken) decides its live sessions through the review routes.
    PLATFORM_ORGANIZATION_ID: platformOrganizationId(s),
    // A new organization's business verification (its activation) opens on backend-api's hosted page.
    VERIFY_URL: process.env.VERIFY_URL || `http://localhost:${s.backendPort}`,
    // Reviewers read the documents backend-api stored: the same key and folder.
    ...documentEnv(s),
  };
}

export function backendApiEnv(s: LocalSettings): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: s.backendPort,
    HOST: s.host,
    LOG_LEVEL: s.logLevel,
    DATABASE_URL: s.databaseUrl ?? '',
    REDIS_URL: s.redisUrl ?? '',
    // The delivery worker runs here (WEBHOOK_DELIVERY_ENABLED defaults to true) and may call back to loopback.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: privateTargetsSetting(),
    // The demo organization plays the platform: its live kyc sessions of user_demo set the demo user's kycStatus.
    PLATFORM_ORGANIZATION_ID: platformOrganizationId(s),
    // Test sessions are decided with the hosted page's sandbox buttons, live ones by a reviewer, as in production.
    VERIFICATION_DECISIONS: verificationDecisionsSetting(),
    // backend-api on DATABASE_URL refuses to start without these; one local process needs no shared secret.
    VERIFY_URL: process.env.VERIFY_URL || `http://localhost:${s.backendPort}`,
    HOSTED_PAGE_SECRET: process.env.HOSTED_PAGE_SECRET || randomBytes(32).toString('base64url'),
    // Identity documents: encrypted under a key kept between runs, in a folder of the data folder.
    ...documentEnv(s),
    // The fake Smile ID of this run, when there is one.
    ...s.smileIdEnv,
  };
}

export function localUrl(address: string): string {
  return address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
}
