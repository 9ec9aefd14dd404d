import { findActiveApiKey, touchApiKeys } from '@platform/api-keys';
import type { ApiKeyOwner, ApiKeyPermission, Database } from '@platform/db';
import { type AppError, forbidden, unauthorized } from '@platform/errors';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ApiKeyUsageRecorder, createApiKeyUsageRecorder } from './api-key-usage.js';

export const API_KEY_HEADER = 'x-service-api-key';

/** The request's API key: its id, what it acts for (its organization in its environment) and its own rate limit. */
export interface ApiKeyPrincipal extends ApiKeyOwner {
  id: string;
  rateLimitPerMinute: number | null;
  /** What it may do beyond the default (docs/decisions.md#verified-data). */
  permissions: readonly ApiKeyPermission[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Records when keys were last used; tests `flush()` it before reading lastUsedAt. */
    apiKeyUsage: ApiKeyUsageRecorder;
  }
  interface FastifyRequest {
    apiKey: ApiKeyPrincipal;
    /**
     * Why the request's key was refused, found in onRequest and thrown in preParsing, so the rate limiter (a
     * route-level onRequest hook, run after this instance-level one) counts the request against its client IP
     * first. Undefined or null when the key is fine.
     */
    apiKeyFailure: AppError | null;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

const CHALLENGE = `ApiKey header="${API_KEY_HEADER}"`;

/** The request's API key, or null when it sent none or an invalid one (or the route is public). */
export function apiKeyOf(request: FastifyRequest): ApiKeyPrincipal | null {
  // Routes registered before this plugin (probes, the 404 handler) never received the decoration.
  return (request.apiKey as ApiKeyPrincipal | null | undefined) ?? null;
}

export interface ApiKeyAuthenticationOptions {
  db: Database;
  now: () => Date;
  /** Stores that keys were used (default: touchApiKeys on `db`); tests replace it to count or hold writes. */
  recordUses?: (ids: string[], now: Date, intervalMs: number) => Promise<unknown>;
}

/**
 * Every route needs a live or test secret key in `x-service-api-key` unless its config says
 * `public: true`. Keys are looked up by their SHA-256 hash, so the secret itself is never
 * compared, stored or logged. The key is looked up on onRequest; a refusal is thrown on preParsing, after
 * the rate limit and before the body is read, so guessing keys spends the client IP's budget.
 *
 * Once a request that authenticated has been answered (whatever its status, 429 included: the key was
 * used), its key's lastUsedAt is recorded at most once a minute, off the request's path (api-key-usage.ts);
 * what is still unwritten when the app closes is written first.
 */
// An API key sent the way bearer tokens are (`Authorization: Bearer sk_live_...`): say where it goes instead.
const KEY_AS_AUTHORIZATION = /^\s*(?:bearer|basic|apikey|token)?\s*sk_(?:live|test)_/i;

/** What a request without the key header is told: where the key goes, and that Authorization is not it. */
function missingKeyMessage(authorization: string | undefined): string {
  if (authorization !== undefined && KEY_AS_AUTHORIZATION.test(authorization)) {
    return `API keys are not sent in the Authorization header: send your secret key in the ${API_KEY_HEADER} header instead`;
  }
  return `Missing API key: send your secret key in the ${API_KEY_HEADER} header`;
}

export const apiKeyAuthentication = fp<ApiKeyAuthenticationOptions>(
  async (app, { db, now, recordUses }) => {
    const usage = createApiKeyUsageRecorder({
      write: recordUses ?? ((ids, at, intervalMs) => touchApiKeys(db, ids, { now: at, minIntervalMs: intervalMs })),
      now,
      logger: app.log,
    });
    app.decorate('apiKeyUsage', usage);
    app.addHook('onResponse', async (request) => {
      const key = apiKeyOf(request);
      if (key !== null) usage.record(key.id);
    });
    app.addHook('onClose', async () => usage.flush());
    app.decorateRequest('apiKey', null as unknown as ApiKeyPrincipal);
    app.decorateRequest('apiKeyFailure', null);
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const header = request.headers[API_KEY_HEADER];
      if (header === undefined || header === '') {
        request.apiKeyFailure = unauthorized(missingKeyMessage(request.headers.authorization), CHALLENGE);
        return;
      }
      const secret = Array.isArray(header) ? header[0] : header;
      const key = secret ? await findActiveApiKey(db, secret) : null;
      if (!key) {
        request.apiKeyFailure = unauthorized('Invalid or revoked API key', CHALLENGE);
        return;
      }
      request.apiKey = key;
    });
    app.addHook('preParsing', async (request) => {
      if (request.apiKeyFailure) throw request.apiKeyFailure;
    });
  },
  { name: 'api-key-authentication' },
);

/**
 * Refuses, before anything is read, a key without `permission` (docs/decisions.md#verified-data): `what` names what
 * was asked, the answer the permission and who gives it.
 */
export function requireKeyPermission(
  key: Pick<ApiKeyPrincipal, 'permissions'>,
  permission: ApiKeyPermission,
  what: string,
): void {
  if (key.permissions.includes(permission)) return;
  throw forbidden(
    `${what} needs an API key with the permission ${permission}; an owner or admin gives it to a new key on the ` +
      'Developers page',
  );
}
