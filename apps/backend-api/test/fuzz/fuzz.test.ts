import { createApiKey, revokeApiKey } from '@platform/api-keys';
import type { DatabaseHandle } from '@platform/db';
import { apiKeys, driveFolders } from '@platform/db/schema';
import { createTestDatabase, tableChecksums } from '@platform/db/testing';
import { activePdfs } from '@platform/document-checks/testing';
import {
  type FuzzRequest,
  type FuzzRequestOptions,
  fuzzedCoverageProblems,
  fuzzRunSettings,
  type NoSuccessReason,
  type RouteUnderTest,
  requestsFor,
  requestsForRoutes,
  routesUnderTest,
} from '@platform/http/testing';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendApp } from '../../src/app.js';
import { formTokenFor } from '../../src/modules/verification/hosted-page/form-token.js';
import { API_KEY_HEADER } from '../../src/plugins/api-key-authentication.js';
import { buildTestApp, createTestOrganization, testClock } from '../app-fixtures.js';
import { pdfDocument, pngImage, uploadDocument } from '../document-fixtures.js';
import { createdSessionId, fundWallet } from '../verification-fixtures.js';
import { apiKeyCredentials, idempotencyHeaders } from './headers.js';
import { isBrowserPage, isDocumentation, routeName } from './route-kinds.js';
import { documentUploads, UPLOAD_ROUTES } from './uploads.js';

// Every route backend-api registers gets generated requests (valid-looking and hostile bodies, queries, headers
// and path parameters, with a live or test key, another organization's, a revoked or made-up one, or none).
// None may answer 5xx, every error answer is the envelope, and a refused request (4xx) changes no row.

const { seed, numRuns } = fuzzRunSettings({ seed: 20_261_124, numRuns: 3_000 });

// Routes that cannot answer 2xx to the requests this harness makes, and why (with what shows they were reached).
// Every other route must answer 2xx at least once in a run, so the run is known to reach its handlers and not only
// its validation.
const NO_SUCCESS_HERE: Record<string, NoSuccessReason> = {
  'POST /session/:id': { reason: 'a browser form: post-redirect-get answers 303 back to the page', instead: [303] },
  'POST /session/:id/documents': {
    reason: "the capture form's multipart upload: post-redirect-get answers 303 back to the page",
    instead: [303],
  },
};
const HOSTED_PAGE_SECRET = 'a-fuzzing-hosted-page-secret-of-32-characters';

let database: DatabaseHandle;
let app: BackendApp;
let routes: RouteUnderTest[];
let requests: fc.Arbitrary<FuzzRequest>;
/** A route's own requests (its share of `requests`), for topping up a run's coverage. */
let requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;
// A clock that stands still: a key's lastUsedAt is then written once (below) and never again during the run.
const clock = testClock();

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildTestApp(database, {
    now: clock.now,
    // Two keys send every request: the limit must not be what answers, whatever the fixture's default.
    env: { RATE_LIMIT_PER_MINUTE: '100000000', HOSTED_PAGE_SECRET },
  });
  routes = routesUnderTest(app).filter((route) => !isDocumentation(route));

  const { db } = database;
  const organization = await createTestOrganization(db, 'Fuzzed');
  const other = await createTestOrganization(db, 'Other');
  const revoked = await createApiKey(db, { organizationId: organization.id, environment: 'live', name: 'Revoked' });
  await revokeApiKey(db, { organizationId: organization.id, id: revoked.id });
  await fundWallet(db, organization.id, 'live', 1_000_000);
  await fundWallet(db, organization.id, 'test', 1_000_000);
  // Test sessions: one whose hosted page gets sandbox actions with its real form token, and others to get and cancel.
  const pageSessionId = await createdSessionId(app, organization.testKey);
  // Sessions with every kyc document uploaded, which a clean submit body can move to processing: the submit route's
  // own, so that no other route (a cancel) takes them from it first, whatever the seed; and kyb ones.
  const image = await pngImage();
  const submittable: string[] = [];
  for (let index = 0; index < 4; index += 1) {
    const sessionId = await createdSessionId(app, organization.testKey);
    for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
      const uploaded = await uploadDocument(app, organization.testKey, sessionId, kind, image);
      if (uploaded.statusCode !== 201) throw new Error(`Uploading a document failed: ${uploaded.body}`);
    }
    submittable.push(sessionId);
  }
  const kybSessionId = await createdSessionId(app, organization.testKey, { type: 'kyb', externalEndUserId: 'fuzz-co' });
  // Test sessions only test decisions go to, so that they move them on their own, whatever the other routes do.
  const testDecisionSessions: string[] = [];
  for (let index = 0; index < 4; index += 1)
    testDecisionSessions.push(await createdSessionId(app, organization.testKey));
  // Canceled sessions the export reads (a final session's records), with keys that may read verified data.
  const exportSessions: string[] = [];
  for (let index = 0; index < 2; index += 1) {
    const sessionId = await createdSessionId(app, organization.testKey);
    const canceled = await app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${sessionId}/cancel`,
      headers: { [API_KEY_HEADER]: organization.testKey },
    });
    if (canceled.statusCode !== 200) throw new Error(`Canceling a session failed: ${canceled.body}`);
    exportSessions.push(sessionId);
  }
  await db
    .update(apiKeys)
    .set({ permissions: ['verified_data:read'] })
    .where(eq(apiKeys.organizationId, organization.id));
  const uploadSessions = [
    await createdSessionId(app, organization.testKey),
    await createdSessionId(app, organization.testKey),
  ];
  const sessionIds = [
    pageSessionId,
    await createdSessionId(app, organization.testKey),
    await createdSessionId(app, organization.testKey),
    kybSessionId,
  ];
  const [folder] = await db
    .insert(driveFolders)
    .values({ organizationId: organization.id, environment: 'test', name: 'Seeded' })
    .returning();
  // Folders nothing is created in, so that deleting one can succeed.
  const leaves = await db
    .insert(driveFolders)
    .values(
      Array.from({ length: 4 }, (_, index) => ({
        organizationId: organization.id,
        environment: 'test' as const,
        name: `Leaf ${index}`,
      })),
    )
    .returning({ id: driveFolders.id });
  // Each key's first use records lastUsedAt (after the answer); do it now and wait for the writes, so the fuzzed
  // requests find it already set.
  for (const key of [organization.liveKey, organization.testKey, other.liveKey]) {
    await app.inject({ method: 'GET', url: '/v1/wallet', headers: { [API_KEY_HEADER]: key } });
  }
  await app.apiKeyUsage.flush();

  const credentials = apiKeyCredentials({
    live: organization.liveKey,
    test: organization.testKey,
    otherOrganization: other.liveKey,
    revoked: revoked.secret,
  });
  const routeRequestOptions: FuzzRequestOptions = {
    lookup: (id) => app.getSchema(id) as Record<string, unknown> | undefined,
    credentials,
    headers: idempotencyHeaders(),
    // Clean requests carry the organization's own keys and at most a fresh idempotency key, so they can succeed.
    clean: {
      credentials: fc
        .constantFrom(organization.liveKey, organization.testKey)
        .map((key) => ({ [API_KEY_HEADER]: key })),
      headers: fc
        .option(fc.uuid(), { nil: undefined })
        .map((key): Record<string, string> => (key === undefined ? {} : { 'x-idempotency-key': key })),
    },
    bodyExamples: {
      'POST /v1/verify/sessions': fc.record(
        {
          type: fc.constantFrom('kyc', 'kyb'),
          externalEndUserId: fc.string({ minLength: 1, maxLength: 300 }),
          appName: fc.string({ maxLength: 300 }),
          callbackUrl: fc.constantFrom(
            'https://hooks.example.com/kyc',
            'http://127.0.0.1/x',
            'https://user:pass@example.com/',
            'ftp://example.com',
          ),
          locale: fc.constantFrom('en', 'sw', 'fr', ''),
          returnUrl: fc.constantFrom(
            'https://shop.example.com/verified',
            'http://shop.example.com/verified',
            'https://10.0.0.1/',
            `https://example.com/${'a'.repeat(2030)}`,
          ),
        },
        { requiredKeys: ['type', 'externalEndUserId'] },
      ),
      'POST /session/:id': fc.record(
        {
          token: fc.oneof(
            { weight: 3, arbitrary: fc.constant(formTokenFor(HOSTED_PAGE_SECRET, pageSessionId)) },
            { weight: 1, arbitrary: fc.string() },
          ),
          action: fc.constantFrom('submit', 'approve', 'reject', 'request_resubmission'),
          reason: fc.string({ maxLength: 600 }),
        },
        { requiredKeys: ['token', 'action'] },
      ),
      // Mostly well-formed kyc bodies, which the sessions with every document uploaded take; kyb ones too.
      'POST /v1/verify/sessions/:id/submit': fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            { idType: 'national_id', idNumber: '27183945' },
            { idType: 'passport', idNumber: 'ak1234567' },
            { idType: 'alien_id', idNumber: ' 1234567 ' },
            { idType: 'passport', idNumber: 'x' },
            { idType: 'driving_licence', idNumber: '1' },
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record(
            {
              registrationNumber: fc.constantFrom('PVT-AB12CD3', 'CPR/2015/123456', 'nope'),
              companyName: fc.string({ maxLength: 300 }),
            },
            { requiredKeys: ['registrationNumber'] },
          ),
        },
      ),
      // Mostly well-formed decisions, which the test sessions given to this route take in turn.
      'POST /v1/verify/sessions/:id/test-decision': fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            { status: 'processing' },
            { status: 'verified' },
            { status: 'rejected', reason: 'The ID is expired' },
            { status: 'requires_input', resubmitDocuments: ['selfie'] },
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record(
            {
              status: fc.constantFrom('processing', 'verified', 'rejected', 'requires_input', 'approved'),
              reason: fc.string({ maxLength: 600 }),
              resubmitDocuments: fc.subarray(['selfie', 'id_document_front', 'cr12']),
            },
            { requiredKeys: ['status'] },
          ),
        },
      ),
      'POST /v1/drive/folders': fc.record(
        {
          name: fc.string({ maxLength: 300 }),
          parentId: fc.constantFrom(folder!.id, '00000000-0000-4000-8000-000000000000'),
        },
        { requiredKeys: ['name'] },
      ),
    },
    pathValues: { id: fc.constantFrom(...sessionIds, folder!.id, ...leaves.map((leaf) => leaf.id)) },
    pathValuesUnder: {
      '/v1/verify/sessions/:id/submit': { id: fc.constantFrom(...submittable, kybSessionId) },
      '/v1/verify/sessions/:id/test-decision': { id: fc.constantFrom(...testDecisionSessions) },
      '/v1/verify/sessions/:id/export': { id: fc.constantFrom(...exportSessions, ...sessionIds) },
    },
  };
  const uploads = documentUploads(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant({ [API_KEY_HEADER]: organization.testKey }) },
      { weight: 1, arbitrary: credentials },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...sessionIds, ...submittable, '00000000-0000-4000-8000-000000000000') },
      // Sessions only uploads go to, so that cancels and submits of the others (the edge probes' clean requests
      // among them) cannot leave the upload route no pending session to succeed on, whatever the seed.
      { weight: 1, arbitrary: fc.constantFrom(...uploadSessions) },
    ),
    {
      image,
      pdf: await pdfDocument(),
      smallImage: await pngImage(300, 300),
      activePdfs: activePdfs().map((file) => file.bytes),
    },
    { sessionId: pageSessionId, formToken: formTokenFor(HOSTED_PAGE_SECRET, pageSessionId) },
  );
  // Uploads are one request in sixteen: three of four to the API route, which must reach a 2xx in every run.
  requests = fc.oneof(
    { weight: 30, arbitrary: requestsForRoutes(routes, routeRequestOptions) },
    { weight: 2, arbitrary: uploads },
  );
  // The upload routes' multipart bodies are their share too, which their schemas' requests cannot be.
  requestsOf = (route) => {
    const own = requestsFor(route, routeRequestOptions);
    if (!UPLOAD_ROUTES.includes(routeName(route))) return own;
    return fc.oneof(
      own,
      uploads.filter((request) => request.route === routeName(route)),
    );
  };
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('fuzzing every backend-api route', () => {
  it('finds the routes to fuzz', () => {
    expect(routes.map(routeName)).toEqual(
      expect.arrayContaining(['POST /v1/verify/sessions', 'POST /v1/drive/folders', 'GET /session/:id']),
    );
  });

  it('never answers 5xx, answers errors with the envelope, changes no row when it refuses, and reaches every handler', async () => {
    const target = { inject: app.inject.bind(app), snapshot: () => tableChecksums(database.db), isBrowserPage };
    // Every kind of edge input backend-api has a field for is sent and seen refused (it takes no dates: extreme ones
    // go to its query parameters unmarked, held to the usual rules).
    const probes = ['not-utf8', 'not-one-line', 'two-idempotency-keys'] as const;
    const run = { routes, requests, requestsOf, listed: NO_SUCCESS_HERE, probes };
    expect(await fuzzedCoverageProblems(target, run, { seed, numRuns }), `FUZZ_SEED=${seed}`).toEqual([]);
  });
});
