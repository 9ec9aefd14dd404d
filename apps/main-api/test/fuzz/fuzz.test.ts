import {
  type FuzzRequest,
  type FuzzRequestOptions,
  fuzzedCoverageProblems,
  type NoSuccessReason,
  type RouteUnderTest,
  requestsFor,
  routesUnderTest,
} from '@platform/http/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MPESA_CALLBACK_PATH } from '../../src/modules/billing/providers/daraja/routes.js';
import { PAYSTACK_WEBHOOK_PATH } from '../../src/modules/billing/providers/paystack/routes.js';
import {
  ACTIVATION_PATH,
  AUDIT_PATH,
  BILLING_METHODS_PATH,
  BILLING_PATH,
  BILLING_PAYMENTS_PATH,
  BILLING_PLAN_PATH,
  BILLING_WALLET_PATH,
  DASHBOARD_PATH,
  DEVELOPERS_PATH,
  LOGIN_CALLBACK_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  NEW_PROFILE_PATH,
  NOTIFICATIONS_PATH,
  ORGANIZATION_NEW_PATH,
  PROFILE_PATH,
  SETTINGS_PATH,
  TEAM_PATH,
  VERIFICATIONS_PATH,
} from '../../src/modules/dashboard/pages/nav.js';
import { createTestApp, insertOrganization, insertUser, type TestApp, tokenFor } from '../helpers.js';
import {
  type FuzzApp,
  fuzzTarget,
  MEMBER_ID,
  numRuns,
  restoreTeamAfterRemovals,
  seed,
  startFuzzApp,
  UNREACHABLE_RATE_LIMIT,
} from './fuzz-app.js';
import { mainRouteRequests } from './main-route-requests.js';
import { isDocumentation, isFinanceRoute, isPlatformOperatorRoute, isReviewConsole, routeName } from './route-kinds.js';

// Every route main-api registers gets generated requests (valid-looking and hostile bodies, queries, headers
// and path parameters, as the seeded member, another user, or nobody). None may answer 5xx, every error answer
// is the envelope, and a refused request (4xx) or a forged provider callback changes no row.

// Routes that cannot answer 2xx to the requests this harness makes, and why. Every other route must answer 2xx
// at least once in a run, so the run is known to reach its handlers and not only its validation.
const NO_SUCCESS_HERE: Record<string, NoSuccessReason> = {
  'POST /v1/accounts': {
    reason: 'the member, the one user whose clean requests carry an email address, has a profile already',
    instead: [409],
  },
  'POST /v1/organizations/:id/activation': {
    reason:
      "the member's organization is seeded activated (so its live keys and top-ups are reached), and an activated " +
      "organization's start is a 409; activation.test.ts opens sessions",
    instead: [409],
  },
  'GET /v1/invitations/:invitationId/accept': {
    reason: "sends a browser to the invitation's dashboard page, always a redirect (a 303)",
    instead: [303],
  },
  ...dashboardWithoutProvider(),
  'POST /v1/webhooks/endpoints/:environment/secret/reveal': {
    reason:
      'shows a secret once per environment and never after a rotation, so a run that rotates first only meets its 409',
    instead: [409],
  },
};

/**
 * The fuzz app configures no identity provider, so the dashboard is off: its pages are a 404 page, its forms a 403
 * without the cookie's CSRF token, and `GET /` always a redirect. sign-in.test.ts signs in against a real provider.
 */
function dashboardWithoutProvider(): Record<string, NoSuccessReason> {
  const off = { reason: 'the dashboard is off without an identity provider (a 404 page)', instead: [404] };
  const form = { reason: 'a dashboard form needs the CSRF token of a signed cookie', instead: [403] };
  return {
    'GET /': { reason: 'sends to the dashboard, always a redirect (a 303)', instead: [303] },
    [`GET ${LOGIN_PATH}`]: off,
    [`GET ${LOGIN_CALLBACK_PATH}`]: off,
    [`GET ${DASHBOARD_PATH}`]: off,
    [`GET ${VERIFICATIONS_PATH}`]: off,
    [`GET ${VERIFICATIONS_PATH}/:id`]: off,
    [`POST ${VERIFICATIONS_PATH}/:id/cancel`]: form,
    [`GET ${DEVELOPERS_PATH}`]: off,
    [`POST ${DEVELOPERS_PATH}/keys`]: form,
    [`POST ${DEVELOPERS_PATH}/keys/:id/revoke`]: form,
    [`GET ${DEVELOPERS_PATH}/webhooks`]: off,
    [`POST ${DEVELOPERS_PATH}/webhooks`]: form,
    [`POST ${DEVELOPERS_PATH}/webhooks/clear`]: form,
    [`POST ${DEVELOPERS_PATH}/webhooks/secret/reveal`]: form,
    [`POST ${DEVELOPERS_PATH}/webhooks/secret/rotate`]: form,
    [`POST ${DEVELOPERS_PATH}/webhooks/test`]: form,
    [`GET ${DEVELOPERS_PATH}/events`]: off,
    [`GET ${DEVELOPERS_PATH}/events/:id`]: off,
    [`POST ${DEVELOPERS_PATH}/events/:id/redeliver`]: form,
    [`GET ${DEVELOPERS_PATH}/origins`]: off,
    [`POST ${DEVELOPERS_PATH}/origins`]: form,
    [`POST ${DEVELOPERS_PATH}/origins/remove`]: form,
    [`GET ${PROFILE_PATH}`]: off,
    [`POST ${PROFILE_PATH}`]: form,
    [`GET ${NEW_PROFILE_PATH}`]: off,
    [`POST ${NEW_PROFILE_PATH}`]: form,
    [`GET ${SETTINGS_PATH}`]: off,
    [`POST ${SETTINGS_PATH}`]: form,
    [`POST ${SETTINGS_PATH}/low-balance`]: form,
    [`GET ${TEAM_PATH}`]: off,
    [`POST ${TEAM_PATH}/invitations`]: form,
    [`POST ${TEAM_PATH}/invitations/:invitationId/resend`]: form,
    [`POST ${TEAM_PATH}/invitations/:invitationId/revoke`]: form,
    [`POST ${TEAM_PATH}/members/:userId/role`]: form,
    [`POST ${TEAM_PATH}/members/:userId/remove`]: form,
    [`GET ${AUDIT_PATH}`]: off,
    [`GET ${NOTIFICATIONS_PATH}`]: off,
    [`POST ${NOTIFICATIONS_PATH}/read-all`]: form,
    [`POST ${NOTIFICATIONS_PATH}/:id/read`]: form,
    [`GET ${ORGANIZATION_NEW_PATH}`]: off,
    [`POST ${ORGANIZATION_NEW_PATH}`]: form,
    [`GET ${DASHBOARD_PATH}/invitations/:id`]: off,
    [`POST ${DASHBOARD_PATH}/invitations/:id/accept`]: form,
    [`GET ${ACTIVATION_PATH}`]: off,
    [`POST ${ACTIVATION_PATH}`]: form,
    [`GET ${BILLING_PATH}`]: off,
    [`GET ${BILLING_PLAN_PATH}`]: off,
    [`POST ${BILLING_PLAN_PATH}`]: form,
    [`POST ${BILLING_PATH}/subscription/cancel`]: form,
    [`POST ${BILLING_PATH}/subscription/resume`]: form,
    [`GET ${BILLING_WALLET_PATH}`]: off,
    [`POST ${BILLING_WALLET_PATH}/test-top-up`]: form,
    [`POST ${BILLING_WALLET_PATH}/top-up`]: form,
    [`GET ${BILLING_METHODS_PATH}`]: off,
    [`POST ${BILLING_METHODS_PATH}/:id/remove`]: form,
    [`GET ${BILLING_PAYMENTS_PATH}`]: off,
    [`GET ${BILLING_PAYMENTS_PATH}.csv`]: off,
    [`GET ${BILLING_PAYMENTS_PATH}/:reference/receipt`]: off,
    [`GET ${BILLING_PAYMENTS_PATH}/:reference/invoice`]: off,
    [`POST ${LOGIN_PATH}`]: form,
    [`POST ${LOGOUT_PATH}`]: form,
  };
}

let fuzzApp: FuzzApp;
let t: TestApp;
let routes: RouteUnderTest[];
let requests: fc.Arbitrary<FuzzRequest>;
/** A route's own requests (its share of `requests`), for topping up a run's coverage. */
let requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;

beforeAll(async () => {
  fuzzApp = await startFuzzApp();
  t = fuzzApp.t;
  ({ routes, requests, requestsOf } = await mainRouteRequests(fuzzApp));
});

afterAll(async () => {
  await fuzzApp?.close();
});

describe('fuzzing every main-api route', () => {
  it('finds the routes to fuzz, provider callbacks included', () => {
    expect(routes.map(routeName)).toEqual(
      expect.arrayContaining([
        'PATCH /v1/accounts/me',
        'POST /v1/billing/pay',
        `POST ${PAYSTACK_WEBHOOK_PATH}`,
        `POST ${MPESA_CALLBACK_PATH}/:token`,
      ]),
    );
  });

  it('never answers 5xx, answers errors with the envelope, changes no row when it refuses, and reaches every handler', async () => {
    // Every kind of edge input is sent and seen refused: bodies that are not UTF-8, names not on one line, dates
    // PostgreSQL cannot be asked about (the payment list, the audit log), two different idempotency keys.
    const probes = ['not-utf8', 'not-one-line', 'unstorable-date', 'two-idempotency-keys'] as const;
    const run = { routes, requests, requestsOf, listed: NO_SUCCESS_HERE, probes };
    const problems = await fuzzedCoverageProblems(fuzzTarget(t, restoreTeamAfterRemovals(t.db)), run, {
      seed,
      numRuns,
    });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });
});

// The sandbox stands in for the providers when none is configured; its checkout page exists only then.
describe('fuzzing the routes that exist only with the sandbox providers', () => {
  let sandbox: TestApp;
  let sandboxRoutes: RouteUnderTest[] = [];
  let sandboxOptions: FuzzRequestOptions;

  beforeAll(async () => {
    sandbox = await createTestApp({
      env: {
        PAYMENT_RECONCILE_INTERVAL_MS: '0',
        RENEWAL_INTERVAL_MS: '0',
        RATE_LIMIT_PER_MINUTE: UNREACHABLE_RATE_LIMIT,
      },
    });
    const withProviders = new Set(routes.map(routeName));
    sandboxRoutes = routesUnderTest(sandbox.app).filter(
      (route) =>
        !isDocumentation(route) &&
        !isReviewConsole(route) &&
        !isFinanceRoute(route) &&
        !isPlatformOperatorRoute(route) &&
        !withProviders.has(routeName(route)),
    );

    await insertUser(sandbox.db, { id: MEMBER_ID });
    const organizationId = await insertOrganization(sandbox.db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
    const checkout = await sandbox.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: { authorization: `Bearer ${await tokenFor(MEMBER_ID)}`, 'x-organization-id': organizationId },
      payload: { method: 'card', amount: 1000 },
    });
    const { reference } = checkout.json<{ reference: string }>();
    // The page's own cookie and form token, so a post can get past the form check and pay or decline.
    const page = await sandbox.app.inject({ method: 'GET', url: `/v1/billing/sandbox/checkout/${reference}` });
    const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(cookie).not.toBe('');
    expect(csrf).not.toBe('');
    sandboxOptions = {
      lookup: (id) => sandbox.app.getSchema(id) as Record<string, unknown> | undefined,
      credentials: fc.constantFrom<Record<string, string>>({}, { cookie: 'sandbox_checkout=forged' }, { cookie }),
      clean: { credentials: fc.constant({ cookie }) },
      bodyExamples: {
        'POST /v1/billing/sandbox/checkout/:reference': fc.record({
          action: fc.constantFrom('pay', 'decline'),
          csrf: fc.oneof(
            { weight: 3, arbitrary: fc.constant(csrf) },
            { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
          ),
        }),
      },
      pathValues: { reference: fc.constant(reference) },
    };
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('finds the sandbox checkout routes', () => {
    expect(sandboxRoutes.map(routeName)).toEqual(
      expect.arrayContaining([
        'GET /v1/billing/sandbox/checkout/:reference',
        'POST /v1/billing/sandbox/checkout/:reference',
      ]),
    );
  });

  it('never answers 5xx, answers errors with the envelope or an error page, changes no row when it refuses, and reaches every handler', async () => {
    const listed = {
      'POST /v1/billing/sandbox/checkout/:reference': {
        reason: 'a browser form: it answers 303 to the return page',
        instead: [303],
      },
    };
    const run = {
      routes: sandboxRoutes,
      requestsOf: (route: RouteUnderTest) => requestsFor(route, sandboxOptions),
      listed,
    };
    const problems = await fuzzedCoverageProblems(fuzzTarget(sandbox), run, { seed, numRuns: Math.ceil(numRuns / 10) });
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  });
});
