import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import type { Database, DatabaseHandle } from '@platform/db';
import * as schema from '@platform/db/schema';
import { buildApp as buildMainApi, createAvatarStorage, loadMainApiConfig } from '@platform/main-api';
import { drizzle } from 'drizzle-orm/postgres-js';
import type { LightMyRequestResponse } from 'fastify';
import postgres from 'postgres';
import { type BenchRequest, type Endpoint, requestInputs, type ServiceName } from '../endpoints.js';
import { compileTemplate, type SqlTemplate } from './template.js';
import { recordingClient, type TraceStep } from './trace.js';

export interface RecordedEndpoint {
  endpoint: Endpoint;
  template: SqlTemplate;
}

type Inject = (request: BenchRequest) => Promise<LightMyRequestResponse>;

/**
 * Runs each endpoint twice on in-process copies of the services whose database client records every
 * statement, and compiles the two recordings into a template the same-SQL baseline replays. The copies
 * use the services' own code and configuration (`envOf`), on the same database.
 */
export async function recordEndpointTemplates(
  databaseUrl: string,
  endpoints: readonly Endpoint[],
  envOf: (service: ServiceName) => NodeJS.ProcessEnv,
  poolSize: number,
): Promise<RecordedEndpoint[]> {
  let sink: TraceStep[] = [];
  const client = postgres(databaseUrl, { max: poolSize, onnotice: () => {} });
  const db = drizzle({ client: recordingClient(client, () => sink), schema }) as unknown as Database;
  const database: DatabaseHandle = {
    db,
    driver: 'postgres',
    ping: async () => undefined,
    close: () => client.end({ timeout: 5 }),
  };
  const avatarDir = mkdtempSync(path.join(tmpdir(), 'bench-avatars-'));
  const mainConfig = loadMainApiConfig({ ...envOf('main-api'), AVATAR_LOCAL_DIR: avatarDir });
  const apps = {
    'main-api': buildMainApi(
      { database, storage: createAvatarStorage(mainConfig.avatars.storage, mainConfig.publicUrl) },
      mainConfig,
    ),
    'backend-api': buildBackendApi({ database }, loadBackendApiConfig(envOf('backend-api'))),
  };
  try {
    await Promise.all(Object.values(apps).map((app) => app.ready()));
    const inject: Record<ServiceName, Inject> = {
      'main-api': (request) => apps['main-api'].inject(injectOptions(request)),
      'backend-api': (request) => apps['backend-api'].inject(injectOptions(request)),
    };
    const recorded: RecordedEndpoint[] = [];
    for (const endpoint of endpoints) {
      const send = inject[endpoint.service];
      for (const request of endpoint.prime?.() ?? []) await expectSuccess(endpoint, await send(request));
      const record = async (request: BenchRequest) => {
        sink = [];
        await expectSuccess(endpoint, await send(request));
        // Anything the request left running (a hook after the answer) lands in this recording too.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const steps = sink;
        sink = [];
        return steps;
      };
      // One request unrecorded first, so both recordings see the steady state: work done once per credential
      // and minute (an API key's lastUsedAt, written after the answer) falls outside them.
      await expectSuccess(endpoint, await send(endpoint.request()));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const firstRequest = endpoint.request();
      const first = await record(firstRequest);
      const secondRequest = endpoint.request();
      const second = await record(secondRequest);
      recorded.push({
        endpoint,
        template: compileTemplate(first, second, {
          first: requestInputs(endpoint, firstRequest),
          second: requestInputs(endpoint, secondRequest),
        }),
      });
    }
    return recorded;
  } finally {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await database.close();
    rmSync(avatarDir, { recursive: true, force: true });
  }
}

function injectOptions(request: BenchRequest) {
  return {
    method: request.method,
    url: request.path,
    headers: request.headers,
    ...(request.body === undefined ? {} : { payload: request.body }),
  };
}

async function expectSuccess(endpoint: Endpoint, response: LightMyRequestResponse): Promise<void> {
  if (response.statusCode >= 200 && response.statusCode < 300) return;
  throw new Error(`${endpoint.label} answered ${response.statusCode} while its SQL was recorded: ${response.body}`);
}
