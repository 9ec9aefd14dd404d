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
});

export type BackendApiConfig = Static<typeof BackendApiConfigSchema>;

export function loadBackendApiConfig(env: NodeJS.ProcessEnv = process.env): BackendApiConfig {
  return loadConfig(BackendApiConfigSchema, env);
}
