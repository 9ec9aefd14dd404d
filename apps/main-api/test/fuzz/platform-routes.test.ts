import { memberships } from '@platform/db/schema';
import {
  type FuzzRequestOptions,
  fuzzedCoverageProblems,
  type NoSuccessReason,
  type RouteUnderTest,
  requestsFor,
  routesUnderTest,
} from '@platform/http/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, insertUser, type TestApp, tokenFor } from '../helpers.js';
import { insertSessionToReview } from '../review-fixtures.js';
import {
  DECIDABLE_SESSIONS,
  FINANCE_ID,
  type FuzzApp,
  fuzzTarget,
  MEMBER_ID,
  numRuns,
  PLATFORM_ADMIN_ID,
  PLATFORM_ID,
  seed,
  seedPlatform,
  startFuzzApp,
  TRANSFER_AMOUNT,
  TRANSFERS_TO_CONFIRM,
} from './fuzz-app.js';
import { bearerCredentials, idempotencyHeaders } from './headers.js';
import { isFinanceRoute, isPlatformOperatorRoute, isReviewConsole, routeName } from './route-kinds.js';

// The routes of the platform organization's staff, fuzzed apart from the shared run (fuzz.test.ts), each with the
// credentials its guard asks for: the reviewer console, the finance routes and the platform operators' route.

let fuzzApp: FuzzApp;
let t: TestApp;
let vault: FuzzApp['vault'];
/** The member's own organization, which pays. */
let memberOrganizationId: string;

beforeAll(async () => {
  fuzzApp = await startFuzzApp();
  ({ t, vault } = fuzzApp);
  await insertUser(t.db, { id: MEMBER_ID });
  memberOrganizationId = await insertOrganization(t.db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
  await seedPlatform(t.db);
});

afterAll(async () => {
  await fuzzApp?.close();
});

// The reviewer console's pages and forms: a cookie from a real sign-in and its form token, so the forms get past
// their checks and claim or decide; forged cookies and tokens, and none, besides. Signing in and out end the
// session of the cookie they are sent with (docs/decisions.md#console-sessions), so they are fuzzed with a cookie
// of their own, apart from the pages.
describe('fuzzing the reviewer console', () => {
  let pageRoutes: RouteUnderTest[] = [];
  let signRoutes: RouteUnderTest[] = [];
  let pageOptions: FuzzRequestOptions;
  let signOptions: FuzzRequestOptions;
  const isSigning = (route: RouteUnderTest) => route.url === '/review/sign-in' || route.url === '/review/sign-out';

  beforeAll(async () => {
    const consoleRoutes = routesUnderTest(t.app).filter(isReviewConsole);
    pageRoutes = consoleRoutes.filter((route) => !isSigning(route));
    signRoutes = consoleRoutes.filter(isSigning);
    const token = await tokenFor(MEMBER_ID);
    const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
    /** A browser signing in: its cookie and the form token of the queue page it lands on. */
    const signIn = async () => {
      const start = await t.app.inject({ method: 'GET', url: '/review' });
      const firstCookie = String([start.headers['set-cookie']].flat()[0] ?? '').split(';')[0] ?? '';
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/review/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: firstCookie },
        payload: form({ token, _csrf: /name="_csrf" value="([^"]+)"/.exec(start.body)?.[1] ?? '' }),
      });
      expect(signedIn.statusCode).toBe(303);
      const signedInCookie = String([signedIn.headers['set-cookie']].flat()[0] ?? '').split(';')[0] ?? '';
      const queue = await t.app.inject({ method: 'GET', url: '/review', headers: { cookie: signedInCookie } });
      const cookie = String([queue.headers['set-cookie']].flat()[0] ?? signedInCookie).split(';')[0] ?? '';
      const csrf = /name="_csrf" value="([^"]+)"/.exec(queue.body)?.[1] ?? '';
      expect(csrf).not.toBe('');
      return { cookie, csrf };
    };
    const withTokenOf =
      (csrf: string) =>
      <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
        fc.record({
          ...fields,
          _csrf: fc.oneof({ weight: 4, arbitrary: fc.constant(csrf) }, fc.string({ maxLength: 80 })),
        });
    const optionsFor = (cookie: string, bodyExamples: Record<string, fc.Arbitrary<unknown>>): FuzzRequestOptions => ({
      lookup: (id) => t.app.getSchema(id) as Record<string, unknown> | undefined,
      credentials: fc.constantFrom<Record<string, string>>({}, { cookie: 'review_session=forged' }, { cookie }),
      clean: { credentials: fc.constant({ cookie }) },
      bodyExamples,
    });

    const decidable: string[] = [];
    const organizationId = await insertOrganization(t.db, { name: 'Console customer', members: [] });
    for (let index = 0; index < DECIDABLE_SESSIONS; index += 1) {
      decidable.push((await insertSessionToReview(t.db, vault.vault, { organizationId })).sessionId);
    }
    const pages = await signIn();
    const withPageToken = withTokenOf(pages.csrf);
    pageOptions = {
      ...optionsFor(pages.cookie, {
        'POST /review/sessions/:sessionId/claim': withPageToken({}),
        'POST /review/sessions/:sessionId/decision': withPageToken({
          decision: fc.constantFrom('verified', 'rejected', 'requires_input', 'maybe'),
          reason: fc.oneof(fc.constant('The photo is blurred'), fc.string({ maxLength: 600 })),
          documents: fc.oneof(fc.constantFrom('selfie', 'cr12'), fc.array(fc.constantFrom('selfie', 'passport'))),
        }),
      }),
      pathValues: { sessionId: fc.constantFrom(...decidable) },
    };
    const signing = await signIn();
    const withSigningToken = withTokenOf(signing.csrf);
    signOptions = optionsFor(signing.cookie, {
      'POST /review/sign-in': withSigningToken({
        token: fc.oneof(fc.constant(token), fc.string({ maxLength: 100 })),
      }),
      'POST /review/sign-out': withSigningToken({}),
    });
  });

  it('finds the console routes', () => {
    expect([...pageRoutes, ...signRoutes].map(routeName)).toEqual(
      expect.arrayContaining([
        'GET /review',
        'POST /review/sign-in',
        'POST /review/sign-out',
        'POST /review/sessions/:sessionId/decision',
      ]),
    );
  });

  const forms = 'a browser form: it answers 303 to the next page';

  it('never answers 5xx, answers errors as pages, changes no row when it refuses, and reaches every handler', async () => {
    const listed: Record<string, NoSuccessReason> = {
      'POST /review/sessions/:sessionId/claim': { reason: forms, instead: [303] },
      'POST /review/sessions/:sessionId/decision': { reason: forms, instead: [303] },
    };
    const run = {
      routes: pageRoutes,
      requestsOf: (route: RouteUnderTest) => requestsFor(route, pageOptions),
      listed,
    };
    const problems = await fuzzedCoverageProblems(fuzzTarget(t), run, { seed, numRuns: Math.ceil(numRuns / 4) });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });

  it('signs in and out without a 5xx, answering errors as pages and changing no row when it refuses', async () => {
    const run = {
      routes: signRoutes,
      requestsOf: (route: RouteUnderTest) => requestsFor(route, signOptions),
      listed: { 'POST /review/sign-in': { reason: forms, instead: [303] } },
    };
    const problems = await fuzzedCoverageProblems(fuzzTarget(t), run, { seed, numRuns: Math.ceil(numRuns / 8) });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });
});

// The finance routes, as the platform organization's finance member calls them: the list of bank transfers, and
// confirmations of the member's pending transfers (the exact amount applies once, another is recorded; a transfer
// already confirmed is a 409 that changes nothing).
describe('fuzzing the finance routes', () => {
  let financeRoutes: RouteUnderTest[] = [];
  let financeOptions: FuzzRequestOptions;

  beforeAll(async () => {
    financeRoutes = routesUnderTest(t.app).filter(isFinanceRoute);
    await insertUser(t.db, { id: FINANCE_ID });
    await t.db.insert(memberships).values({ organizationId: PLATFORM_ID, userId: FINANCE_ID, role: 'finance' });
    const memberToken = await tokenFor(MEMBER_ID);
    const references: string[] = [];
    for (let index = 0; index < TRANSFERS_TO_CONFIRM; index += 1) {
      const started = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: { authorization: `Bearer ${memberToken}`, 'x-organization-id': memberOrganizationId },
        payload: { method: 'bank_transfer', amount: TRANSFER_AMOUNT },
      });
      expect(started.statusCode).toBe(200);
      const body = started.json<{ reference: string; instructions: { reference: string } }>();
      references.push(body.reference, body.instructions.reference.toLowerCase());
    }
    const financeToken = await tokenFor(FINANCE_ID);
    financeOptions = {
      lookup: (id) => t.app.getSchema(id) as Record<string, unknown> | undefined,
      credentials: bearerCredentials({
        member: financeToken,
        outsider: memberToken,
        expired: await tokenFor(FINANCE_ID, { now: new Date('2020-01-01T00:00:00Z'), expiresIn: 60 }),
        unknownUser: await tokenFor('user_without_a_row'),
      }),
      headers: idempotencyHeaders(),
      clean: { credentials: fc.constant({ authorization: `Bearer ${financeToken}` }) },
      bodyExamples: {
        'POST /v1/finance/payments/:reference/confirm': fc.record({
          amountReceived: fc.oneof(
            { weight: 3, arbitrary: fc.constant(TRANSFER_AMOUNT) },
            { weight: 1, arbitrary: fc.integer({ min: -1, max: 2_000_000 }) },
          ),
          bankReference: fc.oneof(
            { weight: 4, arbitrary: fc.stringMatching(/^FT[0-9A-Z]{10}$/) },
            { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
          ),
        }),
      },
      pathValues: { reference: fc.constantFrom(...references) },
      queryExamples: {
        'GET /v1/finance/payments': fc.oneof(
          fc.record({ status: fc.constantFrom('pending', 'succeeded', 'expired') }),
          fc.record({ reference: fc.constantFrom(...references) }),
        ),
      },
    };
  });

  it('finds the finance routes', () => {
    expect(financeRoutes.map(routeName)).toEqual(
      expect.arrayContaining(['GET /v1/finance/payments', 'POST /v1/finance/payments/:reference/confirm']),
    );
  });

  it('never answers 5xx, answers errors with the envelope, changes no row when it refuses, and reaches every handler', async () => {
    const run = { routes: financeRoutes, requestsOf: (route: RouteUnderTest) => requestsFor(route, financeOptions) };
    const problems = await fuzzedCoverageProblems(fuzzTarget(t), run, { seed, numRuns: Math.ceil(numRuns / 4) });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });
});

// The platform operators' route that ends a user's console sessions, as an admin of the platform organization calls
// it: for the reviewer (whose console sessions the console's run opened), for unknown users, and with odd ids.
describe("fuzzing the platform operators' routes", () => {
  let operatorRoutes: RouteUnderTest[] = [];
  let operatorOptions: FuzzRequestOptions;

  beforeAll(async () => {
    operatorRoutes = routesUnderTest(t.app).filter(isPlatformOperatorRoute);
    await insertUser(t.db, { id: PLATFORM_ADMIN_ID });
    await t.db.insert(memberships).values({ organizationId: PLATFORM_ID, userId: PLATFORM_ADMIN_ID, role: 'admin' });
    const adminToken = await tokenFor(PLATFORM_ADMIN_ID);
    operatorOptions = {
      lookup: (id) => t.app.getSchema(id) as Record<string, unknown> | undefined,
      credentials: bearerCredentials({
        member: adminToken,
        outsider: await tokenFor(MEMBER_ID),
        expired: await tokenFor(PLATFORM_ADMIN_ID, { now: new Date('2020-01-01T00:00:00Z'), expiresIn: 60 }),
        unknownUser: await tokenFor('user_without_a_row'),
      }),
      clean: { credentials: fc.constant({ authorization: `Bearer ${adminToken}` }) },
      pathValues: { userId: fc.constantFrom(MEMBER_ID, 'user_without_a_row') },
    };
  });

  it("finds the operators' routes", () => {
    expect(operatorRoutes.map(routeName)).toEqual(['DELETE /v1/review-console/users/:userId/sessions']);
  });

  it('never answers 5xx, answers errors with the envelope, changes no row when it refuses, and reaches every handler', async () => {
    const run = { routes: operatorRoutes, requestsOf: (route: RouteUnderTest) => requestsFor(route, operatorOptions) };
    const problems = await fuzzedCoverageProblems(fuzzTarget(t), run, { seed, numRuns: Math.ceil(numRuns / 8) });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });
});
