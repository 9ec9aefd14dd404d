import type { Database } from '@platform/db';
import { idempotency } from '@platform/idempotency';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface IdempotentRequestsOptions {
  db: Database;
  now: () => Date;
  /** How often this instance purges expired records; 0 leaves purging to other instances. */
  purgeIntervalMs: number;
  /** Called for every replayed answer (metrics). */
  onReplay?: (request: FastifyRequest) => void;
}

/**
 * Idempotent retries for every POST, PATCH and DELETE of this service (docs/decisions.md#idempotency). Keys are
 * scoped to the API key that sent them (docs/decisions.md#idempotency-key-scope), so two keys of one organization
 * never see each other's answers.
 */
export const idempotentRequests = fp<IdempotentRequestsOptions>(
  async (app, { db, now, purgeIntervalMs, onReplay }) => {
    await app.register(idempotency, {
      db,
      now,
      scopeOf: (request) => `api_key:${request.apiKey.id}`,
      purge: purgeIntervalMs > 0 ? { intervalMs: purgeIntervalMs } : false,
      ...(onReplay === undefined ? {} : { onReplay }),
    });
  },
  { name: 'backend-api-idempotency', dependencies: ['api-key-authentication'] },
);
