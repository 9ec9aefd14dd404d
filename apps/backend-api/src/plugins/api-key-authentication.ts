import fp from 'fastify-plugin';
import { findActiveApiKey, type Database } from '@platform/db';
import { unauthorized } from '@platform/errors';

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
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

const CHALLENGE = `ApiKey header="${API_KEY_HEADER}"`;

/**
 * Every route needs a live or test secret key in `x-service-api-key` unless its config says
 * `public: true`. Keys are looked up by their SHA-256 hash, so the secret itself is never
 * compared, stored or logged.
 */
export const apiKeyAuthentication = fp<{ db: Database }>(
  async (app, { db }) => {
    app.decorateRequest('apiKey', null as unknown as ApiKeyPrincipal);
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const header = request.headers[API_KEY_HEADER];
      if (header === undefined || header === '') {
        throw unauthorized(`Missing API key: send your secret key in the ${API_KEY_HEADER} header`, CHALLENGE);
      }
      const secret = Array.isArray(header) ? header[0] : header;
      const key = secret ? await findActiveApiKey(db, secret) : null;
      if (!key) throw unauthorized('Invalid or revoked API key', CHALLENGE);
      request.apiKey = key;
    });
  },
  { name: 'api-key-authentication' },
);
