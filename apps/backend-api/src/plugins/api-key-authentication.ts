import fp from 'fastify-plugin';
import { findActiveApiKey, type Database } from '@platform/db';
import { type AppError, unauthorized } from '@platform/errors';
import type { FastifyRequest } from 'fastify';

export const API_KEY_HEADER = 'x-service-api-key';

export interface ApiKeyPrincipal {
  id: string;
  organizationId: string;
  environment: 'live' | 'test';
  rateLimitPerMinute: number | null;
}

declare module 'fastify' {
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

/**
 * Every route needs a live or test secret key in `x-service-api-key` unless its config says
 * `public: true`. Keys are looked up by their SHA-256 hash, so the secret itself is never
 * compared, stored or logged. The key is looked up on onRequest; a refusal is thrown on preParsing, after
 * the rate limit and before the body is read, so guessing keys spends the client IP's budget.
 */
export const apiKeyAuthentication = fp<{ db: Database }>(
  async (app, { db }) => {
    app.decorateRequest('apiKey', null as unknown as ApiKeyPrincipal);
    app.decorateRequest('apiKeyFailure', null);
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const header = request.headers[API_KEY_HEADER];
      if (header === undefined || header === '') {
        request.apiKeyFailure = unauthorized(
          `Missing API key: send your secret key in the ${API_KEY_HEADER} header`,
          CHALLENGE,
        );
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
