import type { Database } from '@platform/db';
import { createServer } from '@platform/http';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { BackendApiConfig } from './config.js';
import { apiKeyAuthentication, API_KEY_HEADER } from './plugins/api-key-authentication.js';

export interface BackendApiDeps {
  db: Database;
  /** Pings the database for /readyz. */
  pingDatabase: () => Promise<void>;
  redis?: Redis;
  logger?: FastifyBaseLogger;
}

export const SERVICE_VERSION = '0.1.0';

/** Builds the API-key service: verification sessions and drive folders. Never listens. */
export function buildApp(deps: BackendApiDeps, config: BackendApiConfig) {
  const readinessChecks: Record<string, () => Promise<void>> = { database: deps.pingDatabase };
  const redis = deps.redis;
  if (redis) readinessChecks.redis = async () => void (await redis.ping());

  const app = createServer({
    service: {
      name: 'backend-api',
      version: SERVICE_VERSION,
      description:
        'The API-key interface: identity-verification sessions and drive folders, called from customers\' servers.',
    },
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: config.BODY_LIMIT_BYTES,
    security: {
      apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
    },
    readinessChecks,
  });

  app.register(apiKeyAuthentication, { db: deps.db });
  return app;
}

export type BackendApp = ReturnType<typeof buildApp>;
