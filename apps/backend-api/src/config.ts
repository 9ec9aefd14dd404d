import { loadConfig } from '@platform/http';
import { Type, type Static } from '@sinclair/typebox';

export const BackendApiConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
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
});

export type BackendApiConfig = Static<typeof BackendApiConfigSchema>;

export function loadBackendApiConfig(env: NodeJS.ProcessEnv = process.env): BackendApiConfig {
  return loadConfig(BackendApiConfigSchema, env);
}
