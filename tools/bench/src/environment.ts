import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSignedInCookie, signAccessToken } from '@platform/main-api';
import { Redis } from 'ioredis';
import type { BaselineRoute, BaselineSpec, CannedResponse } from './baselines/spec.js';
import {
  type BenchRequest,
  type BenchTokens,
  benchEndpoints,
  ENDPOINT_IDS,
  type Endpoint,
  type ServiceName,
} from './endpoints.js';
import type { BenchOptions } from './options.js';
import { type BenchDatabase, createBenchDatabase, openDatabase } from './setup/database.js';
import { freePort, type ServerProcess, startServerProcess } from './setup/processes.js';
import { type BenchFixture, seedBenchData } from './setup/seed.js';
import {
  DASHBOARD_SESSION_SECRET,
  recordingEnv,
  type ServiceEnvInput,
  serviceEnv,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
} from './setup/service-env.js';
import { type RecordedEndpoint, recordEndpointTemplates } from './sql/record-endpoints.js';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const BASELINES = path.join(REPO_ROOT, 'tools/bench/src/baselines');
/** The services' pool size: createDatabase's default, which server.ts uses. */
export const POOL_SIZE = 10;
/** The organizations the spread-out rows take turns with (issue 21). */
const CUSTOMER_ORGANIZATIONS = 100;

interface MeasuredEndpoint extends RecordedEndpoint {
  /** What the service answered to one real request; the baselines answer the same bytes. */
  response: CannedResponse;
}

export interface BenchEnvironment {
  /** The run's own database. */
  databaseUrl: string;
  fixture: BenchFixture;
  /** The measured member's bearer token. */
  token: string;
  endpoints: MeasuredEndpoint[];
  skipped: Array<{ label: string; reason: string }>;
  services: Record<ServiceName, ServerProcess>;
  /** Each service's RSS once it first answered. */
  bootRssKib: Record<ServiceName, number>;
  sameSql: ServerProcess;
  nodeHttp: ServerProcess;
  runtime: string;
  workDir: string;
  close(): Promise<void>;
}

export interface EnvironmentOptions {
  /** Extra node flags per service process, and for the same-SQL baseline's (e.g. --cpu-prof). */
  nodeFlags?: Partial<Record<ServiceName | 'same-sql', string[]>>;
  log?: (line: string) => void;
}

/**
 * The bench itself imports the workspace packages' compiled JS too (its script runs tsx without the
 * `source` condition), so the SQL it records comes from the very code the service processes run.
 *
 * Everything a run measures: a fresh database with the bench data, both services in processes of their
 * own, the endpoints' SQL recorded, and the two baseline servers. close() stops the processes, drops the
 * database and deletes this run's rate-limit counters; it is safe to call after a failure part-way.
 */
export async function startBenchEnvironment(
  options: BenchOptions,
  settings: EnvironmentOptions = {},
): Promise<BenchEnvironment> {
  const log = settings.log ?? ((line: string) => console.log(line));
  const runId = `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${randomBytes(2).toString('hex')}`;
  const workDir = mkdtempSync(path.join(tmpdir(), `bench-${runId}-`));
  const processes: ServerProcess[] = [];
  let database: BenchDatabase | undefined;
  let fixture: BenchFixture | undefined;

  const close = async () => {
    await Promise.allSettled(processes.map((server) => server.stop()));
    if (fixture !== undefined) await deleteRateLimitCounters(options.redisUrl, fixture).catch(() => undefined);
    if (database !== undefined && !options.keepDatabase) await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    assertBuilt();
    log(`Creating database bench_${runId} and seeding it`);
    database = await createBenchDatabase(options.databaseUrl, runId);
    const seeding = await openDatabase(database.url, 4);
    const measured = (id: string) => options.only.length === 0 || options.only.includes(id);
    const seedingStarted = Date.now();
    try {
      fixture = await seedBenchData(seeding.db, runId, {
        customers: CUSTOMER_ORGANIZATIONS,
        sessionsAwaitingReview: measured(ENDPOINT_IDS.reviewDecision) ? options.decisionSessions : 0,
      });
    } finally {
      await seeding.close();
    }
    log(
      `Seeded in ${((Date.now() - seedingStarted) / 1000).toFixed(1)} s, ` +
        `with ${fixture.sessionsAwaitingReview.length.toLocaleString('en-US')} sessions awaiting review`,
    );

    const jwtSecret = randomBytes(48).toString('base64url');
    const tokenFor = (subject: string) =>
      signAccessToken({ secret: jwtSecret, issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, subject, expiresIn: '3h' });
    const tokens: BenchTokens = {
      member: await tokenFor(fixture.userId),
      reviewer: await tokenFor(fixture.platform.reviewerUserId),
      memberDashboard: await dashboardCookieOf(database.url, fixture),
    };
    const envInput = (port: number): ServiceEnvInput => ({
      databaseUrl: database!.url,
      redisUrl: options.redisUrl,
      port,
      jwtSecret,
      avatarDir: path.join(workDir, 'avatars'),
      documentDir: path.join(workDir, 'documents'),
      platformOrganizationId: fixture!.platform.id,
      logLevel: options.logLevel,
    });

    const services = {} as Record<ServiceName, ServerProcess>;
    const bootRssKib = {} as Record<ServiceName, number>;
    for (const service of ['main-api', 'backend-api'] as const) {
      const port = await freePort();
      log(`Starting ${service} on port ${port}`);
      const server = await startServerProcess({
        name: service,
        args: [...(settings.nodeFlags?.[service] ?? []), path.join(REPO_ROOT, 'apps', service, 'dist/server.js')],
        env: serviceEnv(service, envInput(port)),
        port,
        logFile: path.join(workDir, `${service}.log`),
        cwd: REPO_ROOT,
        readyPath: '/readyz',
      });
      processes.push(server);
      services[service] = server;
      bootRssKib[service] = server.rssKib();
    }

    const all = benchEndpoints(fixture, tokens).filter((endpoint) => measured(endpoint.id));
    const available: Array<{ endpoint: Endpoint; response: CannedResponse }> = [];
    const skipped: Array<{ label: string; reason: string }> = [];
    for (const endpoint of all) {
      const baseUrl = services[endpoint.service].url;
      for (const request of endpoint.prime?.() ?? []) await send(baseUrl, request);
      const response = await send(baseUrl, endpoint.request());
      if (response.statusCode >= 200 && response.statusCode < 300) available.push({ endpoint, response });
      else
        skipped.push({
          label: endpoint.label,
          reason: `it answers ${response.statusCode} (${summarise(response.body)})`,
        });
    }
    for (const entry of skipped) log(`Skipping ${entry.label}: ${entry.reason}`);

    log('Recording the SQL of each endpoint');
    const recorded = await recordEndpointTemplates(
      database.url,
      available.map(({ endpoint }) => endpoint),
      (service) => recordingEnv(service, envInput(0)),
      POOL_SIZE,
    );
    const endpoints: MeasuredEndpoint[] = recorded.map((entry, index) => ({
      ...entry,
      response: available[index]!.response,
    }));

    const routes: BaselineRoute[] = endpoints.map(({ endpoint, response, template }) => {
      const request = endpoint.request();
      const route = endpoint.route ?? request.path.split('?', 1)[0]!;
      return { id: endpoint.id, method: request.method, path: route, response, template };
    });
    const startBaseline = async (name: 'same-sql' | 'node-http', script: string, spec: Omit<BaselineSpec, 'port'>) => {
      const port = await freePort();
      const specFile = path.join(workDir, `${name}.json`);
      writeFileSync(specFile, JSON.stringify({ ...spec, port }));
      const server = await startServerProcess({
        name,
        args: [
          ...(name === 'same-sql' ? (settings.nodeFlags?.['same-sql'] ?? []) : []),
          '--import',
          'tsx',
          path.join(BASELINES, script),
          specFile,
        ],
        env: { PATH: process.env.PATH, NODE_ENV: 'production' },
        port,
        logFile: path.join(workDir, `${name}.log`),
        cwd: REPO_ROOT,
        readyPath: '/healthz',
      });
      processes.push(server);
      return server;
    };
    log('Starting the baselines (same-SQL Fastify, bare node:http)');
    const sameSql = await startBaseline('same-sql', 'same-sql-server.ts', {
      routes,
      databaseUrl: database.url,
      poolSize: POOL_SIZE,
    });
    const nodeHttp = await startBaseline('node-http', 'node-http-server.ts', {
      routes: routes.map(({ template: _template, ...route }) => route),
    });

    return {
      databaseUrl: database.url,
      fixture,
      token: tokens.member,
      endpoints,
      skipped,
      services,
      bootRssKib,
      sameSql,
      nodeHttp,
      runtime: 'compiled JS (`node apps/<service>/dist/server.js`)',
      workDir,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The measured user's browser, signed in to the dashboard on the organization's live data: a session of the
 * dashboard's own, sealed with the run's DASHBOARD_SESSION_SECRET (every main-api of the run is local http, so the
 * cookie's name and settings are the same for each).
 */
async function dashboardCookieOf(databaseUrl: string, fixture: BenchFixture): Promise<string> {
  const handle = await openDatabase(databaseUrl, 1);
  try {
    return await openSignedInCookie({
      db: handle.db,
      userId: fixture.userId,
      sessionSecret: DASHBOARD_SESSION_SECRET,
      publicUrl: 'http://127.0.0.1',
      organizationId: fixture.organizationId,
      environment: 'live',
      now: new Date(),
    });
  } finally {
    await handle.close();
  }
}

function assertBuilt(): void {
  for (const service of ['main-api', 'backend-api']) {
    const entry = path.join(REPO_ROOT, 'apps', service, 'dist/server.js');
    if (!existsSync(entry)) {
      throw new Error(`${entry} is missing: run \`corepack pnpm build\` first (\`pnpm bench\` does)`);
    }
  }
}

async function send(baseUrl: string, request: BenchRequest): Promise<CannedResponse> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return {
    statusCode: response.status,
    contentType: response.headers.get('content-type') ?? 'application/json; charset=utf-8',
    body: await response.text(),
  };
}

function summarise(body: string): string {
  return body.length > 160 ? `${body.slice(0, 160)}...` : body;
}

/** The rate-limit counters this run's user and keys left in Redis. */
async function deleteRateLimitCounters(redisUrl: string, fixture: BenchFixture): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.del(
      ...fixture.userIds.map((id) => `main-api:rate-limit:user:${id}`),
      ...fixture.apiKeyIds.map((id) => `backend-api:rate-limit:apikey:${id}`),
    );
  } finally {
    redis.disconnect();
  }
}
