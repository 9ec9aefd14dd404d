import { createApiKey, driveFolders, revokeApiKey } from '@platform/db';
import { createTestDatabase, tableChecksums } from '@platform/db/testing';
import type { DatabaseHandle } from '@platform/db';
import {
  envelopeProblem,
  type FuzzRequest,
  fuzzRunSettings,
  routesUnderTest,
  requestsForRoutes,
  type RouteUnderTest,
  toInjectOptions,
} from '@platform/http/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestOrganization, testClock } from '../test/app-fixtures.js';
import { createdSessionId, fundWallet } from '../test/verification-fixtures.js';
import type { BackendApp } from './app.js';
import { API_KEY_HEADER } from './plugins/api-key-authentication.js';

// Every route backend-api registers gets generated requests (valid-looking and hostile bodies, queries, headers
// and path parameters, with a live or test key, another organization's, a revoked or made-up one, or none).
// None may answer 5xx, every error answer is the envelope, and a refused request (4xx) changes no row.

const { seed, numRuns } = fuzzRunSettings({ seed: 20_261_124, numRuns: 4_000 });

let database: DatabaseHandle;
let app: BackendApp;
let routes: RouteUnderTest[];
let requests: fc.Arbitrary<FuzzRequest>;
// A clock that stands still: a key's lastUsedAt is then written once (below) and never again during the run.
const clock = testClock();

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildTestApp(database, {
    now: clock.now,
    // The default test limit is already out of reach; keep it so whatever the fixture says.
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  routes = routesUnderTest(app).filter((route) => !isDocumentation(route));

  const { db } = database;
  const organization = await createTestOrganization(db, 'Fuzzed');
  const other = await createTestOrganization(db, 'Other');
  const revoked = await createApiKey(db, { organizationId: organization.id, environment: 'live', name: 'Revoked' });
  await revokeApiKey(db, { organizationId: organization.id, id: revoked.id });
  await fundWallet(db, organization.id, 'live', 1_000_000);
  await fundWallet(db, organization.id, 'test', 1_000_000);
  const sessionId = await createdSessionId(app, organization.testKey);
  const [folder] = await db.insert(driveFolders).values({ organizationId: organization.id, environment: 'test', name: 'Seeded' }).returning();
  // Each key's first use records lastUsedAt; do it now, so the fuzzed requests find it already set.
  for (const key of [organization.liveKey, organization.testKey, other.liveKey]) {
    await app.inject({ method: 'GET', url: '/v1/wallet', headers: { [API_KEY_HEADER]: key } });
  }

  requests = requestsForRoutes(routes, {
    lookup: (id) => app.getSchema(id) as Record<string, unknown> | undefined,
    credentials: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(organization.liveKey, organization.testKey).map((key) => ({ [API_KEY_HEADER]: key })) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Record<string, string>>(
          {},
          { [API_KEY_HEADER]: other.liveKey },
          { [API_KEY_HEADER]: revoked.secret },
          { [API_KEY_HEADER]: '' },
          { [API_KEY_HEADER]: `sk_live_${'A'.repeat(43)}` },
          { [API_KEY_HEADER]: organization.liveKey.slice(0, -1) },
          { [API_KEY_HEADER]: ` ${organization.liveKey}` },
          { authorization: `Bearer ${organization.liveKey}` },
        ),
      },
    ),
    headers: fc.oneof(
      fc.constant({}),
      fc.uuid().map((key) => ({ 'x-idempotency-key': key })),
      fc.constantFrom('fixed-key-1', 'fixed-key-2').map((key) => ({ 'x-idempotency-key': key })),
      fc.uuid().map((key) => ({ 'idempotency-key': key })),
      fc.tuple(fc.uuid(), fc.uuid()).map(([one, other]) => ({ 'x-idempotency-key': one, 'idempotency-key': other })),
    ),
    bodyExamples: {
      'POST /v1/verify/sessions': fc.record(
        {
          type: fc.constantFrom('kyc', 'kyb'),
          externalEndUserId: fc.string({ minLength: 1, maxLength: 300 }),
          appName: fc.string({ maxLength: 300 }),
          callbackUrl: fc.constantFrom('https://hooks.example.com/kyc', 'http://127.0.0.1/x', 'https://user:pass@example.com/', 'ftp://example.com'),
        },
        { requiredKeys: ['type', 'externalEndUserId'] },
      ),
      'POST /v1/drive/folders': fc.record({ name: fc.string({ maxLength: 300 }), parentId: fc.constantFrom(folder!.id, '00000000-0000-4000-8000-000000000000') }, { requiredKeys: ['name'] }),
    },
    pathValues: { id: fc.constantFrom(sessionId, folder!.id) },
  });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

function isDocumentation(route: RouteUnderTest): boolean {
  return route.url === '/docs' || route.url.startsWith('/docs/') || route.url === '/openapi.json' || route.url === '*';
}

/** The hosted verification page is for the end user's browser: its errors are HTML pages, not the envelope. */
const browserPages = new Set(['GET /session/:id', 'POST /session/:id']);

function isBrowserPage(request: FuzzRequest, contentType: unknown): boolean {
  return browserPages.has(request.route) && String(contentType).startsWith('text/html');
}

describe('fuzzing every backend-api route', () => {
  it('finds the routes to fuzz', () => {
    const names = routes.map((route) => `${route.method} ${route.url}`);
    expect(names).toEqual(expect.arrayContaining(['POST /v1/verify/sessions', 'POST /v1/drive/folders', 'GET /session/:id']));
  });

  it('never answers 5xx, answers errors with the envelope, and changes no row when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const before = await tableChecksums(database.db);
        const response = await app.inject(toInjectOptions(request));
        const what = `${request.route} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, what).toBeLessThan(500);
        if (response.statusCode >= 400 && !isBrowserPage(request, response.headers['content-type'])) {
          expect(envelopeProblem(response.body), what).toBeUndefined();
        }
        if (response.statusCode >= 400) expect(changedTables(before, await tableChecksums(database.db)), what).toEqual([]);
      }),
      { seed, numRuns, endOnFailure: true, reporter: reportWithSeed },
    );
  });
});

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
}

/** fast-check's report, led by the seed so the run can be repeated with FUZZ_SEED. */
function reportWithSeed(details: fc.RunDetails<[FuzzRequest]>): void {
  if (!details.failed) return;
  throw new Error(
    `Fuzzing failed with FUZZ_SEED=${details.seed} (FUZZ_RUNS=${numRuns})\n${fc.defaultReportMessage(details) ?? ''}\n${String(details.errorInstance)}`,
  );
}
