// The two services as the deployment files must see them: the variables their config schemas read, their
// default port, and how each one boots from a given environment.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BackendApiEnvSchema, buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import type { DatabaseHandle } from '@platform/db';
import { buildApp as buildMainApi, createAvatarStorage, loadMainApiConfig, MainApiEnvSchema } from '@platform/main-api';
import { repositoryRoot } from './yaml-files.js';

/** What the tests do with a built app: inject requests, look up routes, then close it. */
interface InjectableApp {
  inject(request: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string | Record<string, unknown>;
  }): Promise<{ statusCode: number; body: string; json<T = unknown>(): T }>;
  hasRoute(route: { method: 'GET' | 'POST'; url: string }): boolean;
  ready(): PromiseLike<unknown>;
  close(): Promise<unknown>;
}

export interface ServiceUnderTest {
  name: 'main-api' | 'backend-api';
  /** The image the Dockerfile, the compose file and the Deployment agree on (without registry or tag). */
  image: string;
  /** Environment variables the service reads: the property names of its config schema. */
  variables: ReadonlySet<string>;
  /** The schema's default PORT: what the service listens on when PORT is not set. */
  defaultPort: number;
  /** Validates `env` as the service does at boot; throws ConfigError naming every bad variable. */
  loadConfig(env: NodeJS.ProcessEnv): void;
  /** The PostgreSQL pool size each instance opens with `env` (DATABASE_POOL_SIZE or its default). */
  databasePoolSize(env: NodeJS.ProcessEnv): number;
  /** Builds the service from `env` on `database`, logging nothing. */
  build(env: NodeJS.ProcessEnv, database: DatabaseHandle): InjectableApp;
}

function defaultPortOf(schema: { properties: { PORT: { default?: unknown } } }): number {
  const port = schema.properties.PORT.default;
  if (typeof port !== 'number') throw new Error('the config schema has no numeric PORT default');
  return port;
}

export const mainApi: ServiceUnderTest = {
  name: 'main-api',
  image: 'platform/main-api',
  variables: new Set(Object.keys(MainApiEnvSchema.properties)),
  defaultPort: defaultPortOf(MainApiEnvSchema),
  loadConfig: (env) => void loadMainApiConfig(env),
  databasePoolSize: (env) => loadMainApiConfig(env).databasePoolSize,
  build(env, database) {
    const config = loadMainApiConfig({ ...env, LOG_LEVEL: 'silent' });
    return buildMainApi({ database, storage: createAvatarStorage(config.avatars.storage, config.publicUrl) }, config);
  },
};

export const backendApi: ServiceUnderTest = {
  name: 'backend-api',
  image: 'platform/backend-api',
  variables: new Set(Object.keys(BackendApiEnvSchema.properties)),
  defaultPort: defaultPortOf(BackendApiEnvSchema),
  loadConfig: (env) => void loadBackendApiConfig(env),
  databasePoolSize: (env) => loadBackendApiConfig(env).databasePoolSize,
  build: (env, database) => buildBackendApi({ database }, loadBackendApiConfig({ ...env, LOG_LEVEL: 'silent' })),
};

export const services: readonly ServiceUnderTest[] = [mainApi, backendApi];

/** Connections one run of the migration command opens (packages/db/src/migrate.ts: `max: 1`). */
export const MIGRATION_CONNECTIONS = 1;

/** Variables @platform/db's migration command reads (packages/db/src/cli/migrate.ts). */
export const MIGRATION_VARIABLES: ReadonlySet<string> = new Set(['DATABASE_URL', 'PGLITE_DATA_DIR', 'LOCAL_DATA_DIR']);

/** The migration command, run from the main-api image's working directory (the deployed main-api package). */
export const MIGRATION_COMMAND = ['node', 'node_modules/@platform/db/dist/cli/migrate.js'];

/**
 * How long a service may take to drain after SIGTERM before it exits anyway: listen()'s default in
 * @platform/http, read from its source so that a change there shows up here.
 */
export function shutdownDelaySeconds(): number {
  const source = readFileSync(path.join(repositoryRoot, 'packages/http/src/listen.ts'), 'utf8');
  const match = /shutdownDelayMs \?\? ([\d_]+)/.exec(source);
  if (match?.[1] === undefined) {
    throw new Error('could not find the default shutdown delay in packages/http/src/listen.ts');
  }
  return Number(match[1].replaceAll('_', '')) / 1000;
}
