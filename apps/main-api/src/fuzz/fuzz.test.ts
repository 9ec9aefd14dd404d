import { createApiKey, notifyUser } from '@platform/db';
import { tableChecksums } from '@platform/db/testing';
import {
  checkFuzzedAnswers,
  type FuzzRequest,
  type FuzzTarget,
  fuzzRunSettings,
  requestsForRoutes,
  type RouteUnderTest,
  routesUnderTest,
} from '@platform/http/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DARAJA, fakeDarajaEnv, type FakeDaraja, startFakeDaraja } from '../../test/fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../test/fake-paystack.js';
import { createTestApp, insertOrganization, insertUser, type TestApp, tokenFor } from '../../test/helpers.js';
import { insertSavedCard, insertSubscription } from '../../test/subscription-fixtures.js';
import { MPESA_CALLBACK_PATH } from '../modules/billing/providers/daraja/callback-routes.js';
import { PAYSTACK_WEBHOOK_PATH } from '../modules/billing/providers/paystack/webhook-routes.js';
import { bearerCredentials, organizationHeaders, signedPaystackEvents } from './headers.js';
import { isBrowserPage, isDocumentation, isForgedCallback, routeName } from './route-kinds.js';

// Every route main-api registers gets generated requests (valid-looking and hostile bodies, queries, headers
// and path parameters, as the seeded member, another user, or nobody). None may answer 5xx, every error answer
// is the envelope, and a refused request (4xx) or a forged provider callback changes no row.

const { seed, numRuns } = fuzzRunSettings({ seed: 20_261_124, numRuns: 2_000 });

const MEMBER_ID = 'user_fuzz_member';
const OUTSIDER_ID = 'user_fuzz_outsider';
// One user sends every request: the limit must not be what answers.
const UNREACHABLE_RATE_LIMIT = '100000000';

let t: TestApp;
let paystack: FakePaystack;
let daraja: FakeDaraja;
let routes: RouteUnderTest[];
let requests: fc.Arbitrary<FuzzRequest>;

beforeAll(async () => {
  paystack = await startFakePaystack();
  daraja = await startFakeDaraja();
  t = await createTestApp({
    env: {
      // Providers configured (against local fakes) so their callback routes exist and payments get answers.
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: paystack.url,
      ...fakeDarajaEnv(daraja.url),
      PROVIDER_TIMEOUT_MS: '5000',
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      RENEWAL_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: UNREACHABLE_RATE_LIMIT,
    },
  });
  routes = routesUnderTest(t.app).filter((route) => !isDocumentation(route));

  const { db } = t;
  await insertUser(db, { id: MEMBER_ID });
  await insertUser(db, { id: OUTSIDER_ID });
  const organizationId = await insertOrganization(db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
  const otherOrganizationId = await insertOrganization(db, { members: [{ userId: OUTSIDER_ID, role: 'owner' }] });
  const authorizationCode = 'AUTH_fuzzapproved';
  paystack.approvedAuthorizations.add(authorizationCode);
  const cardId = await insertSavedCard(db, organizationId, { provider: 'paystack', authorizationCode });
  await insertSubscription(db, organizationId, { plan: 'core', seats: 5, cycle: 'monthly', anchor: new Date().toISOString().slice(0, 10) });
  const notification = await notifyUser(db, { userId: MEMBER_ID, title: 'Hello', message: 'Fuzz', type: 'info' });
  const apiKey = await createApiKey(db, { organizationId, environment: 'test' });

  const credentials = bearerCredentials({
    member: await tokenFor(MEMBER_ID),
    outsider: await tokenFor(OUTSIDER_ID),
    expired: await tokenFor(MEMBER_ID, { now: new Date('2020-01-01T00:00:00Z'), expiresIn: 60 }),
    unknownUser: await tokenFor('user_without_a_row'),
  });
  requests = fc.oneof(
    {
      weight: 20,
      arbitrary: requestsForRoutes(routes, {
        lookup: (id) => t.app.getSchema(id) as Record<string, unknown> | undefined,
        credentials,
        headers: organizationHeaders(organizationId, otherOrganizationId),
        bodyExamples: {
          'POST /v1/billing/pay': fc.oneof(
            fc.record({ method: fc.constant('card'), amount: fc.integer({ min: -5, max: 2_000_000 }) }),
            fc.record({ method: fc.constant('mobile_money'), amount: fc.integer({ min: 1, max: 200_000 }), phone: fc.constantFrom('0712345678', '+254 733 123 456', '254110000000', '0100000000', '0712') }),
            fc.record({ method: fc.constant('saved_method'), amount: fc.integer({ min: 1, max: 5_000 }), paymentMethodId: fc.constantFrom(cardId, '00000000-0000-4000-8000-000000000000') }),
            fc.record({
              method: fc.constantFrom('card', 'mobile_money', 'saved_method'),
              amount: fc.constant(0),
              metadata: fc.record({ type: fc.constant('mail_subscription'), plan: fc.constantFrom('core', 'growth', 'scale'), seats: fc.integer({ min: -1, max: 1e7 }), billingCycle: fc.constantFrom('monthly', 'yearly') }),
            }),
          ),
          'POST /v1/billing/upgrade': fc.record(
            {
              newPlan: fc.constantFrom('core', 'growth', 'scale'),
              newSeats: fc.integer({ min: -1, max: 1e7 }),
              newCycle: fc.constantFrom('monthly', 'yearly'),
              paymentMethodId: fc.constantFrom(cardId, '00000000-0000-4000-8000-000000000000'),
            },
            { requiredKeys: ['newPlan', 'newSeats', 'newCycle'] },
          ),
          'PATCH /v1/accounts/me': fc.record(
            { firstName: fc.string({ maxLength: 120 }), lastName: fc.string(), phone: fc.constantFrom('0712345678', '0733123456', '12'), dob: fc.constantFrom('1990-04-12', '2999-01-01', '1990-02-30') },
            { requiredKeys: [] },
          ),
        },
        pathValues: {
          id: fc.constantFrom(notification.id, cardId, apiKey.id),
          environment: fc.constantFrom('live', 'test', 'LIVE'),
          token: fc.constantFrom(FAKE_DARAJA.callbackToken),
        },
      }),
    },
    { weight: 1, arbitrary: signedPaystackEvents() },
  );
});

afterAll(async () => {
  await t?.close();
  await paystack?.close();
  await daraja?.close();
});

describe('fuzzing every main-api route', () => {
  it('finds the routes to fuzz, provider callbacks included', () => {
    expect(routes.map(routeName)).toEqual(expect.arrayContaining(['PATCH /v1/accounts/me', 'POST /v1/billing/pay', `POST ${PAYSTACK_WEBHOOK_PATH}`, `POST ${MPESA_CALLBACK_PATH}/:token`]));
  });

  it('never answers 5xx, answers errors with the envelope, and changes no row when it refuses', async () => {
    await checkFuzzedAnswers(fuzzTarget(t), requests, { seed, numRuns });
  });
});

// The sandbox stands in for the providers when none is configured; its checkout page exists only then.
describe('fuzzing the routes that exist only with the sandbox providers', () => {
  let sandbox: TestApp;
  let sandboxRoutes: RouteUnderTest[] = [];
  let sandboxRequests: fc.Arbitrary<FuzzRequest>;

  beforeAll(async () => {
    sandbox = await createTestApp({
      env: { PAYMENT_RECONCILE_INTERVAL_MS: '0', RENEWAL_INTERVAL_MS: '0', RATE_LIMIT_PER_MINUTE: UNREACHABLE_RATE_LIMIT },
    });
    const withProviders = new Set(routes.map(routeName));
    sandboxRoutes = routesUnderTest(sandbox.app).filter((route) => !isDocumentation(route) && !withProviders.has(routeName(route)));

    await insertUser(sandbox.db, { id: MEMBER_ID });
    const organizationId = await insertOrganization(sandbox.db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
    const checkout = await sandbox.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: { authorization: `Bearer ${await tokenFor(MEMBER_ID)}`, 'x-organization-id': organizationId },
      payload: { method: 'card', amount: 1000 },
    });
    const { reference } = checkout.json<{ reference: string }>();
    sandboxRequests = requestsForRoutes(sandboxRoutes, {
      lookup: (id) => sandbox.app.getSchema(id) as Record<string, unknown> | undefined,
      credentials: fc.constantFrom<Record<string, string>>({}, { cookie: 'sandbox_checkout=forged' }),
      bodyExamples: {
        'POST /v1/billing/sandbox/checkout/:reference': fc.record({ action: fc.constantFrom('pay', 'decline'), csrf: fc.string({ maxLength: 200 }) }),
      },
      pathValues: { reference: fc.constant(reference) },
    });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('finds the sandbox checkout routes', () => {
    expect(sandboxRoutes.map(routeName)).toEqual(expect.arrayContaining(['GET /v1/billing/sandbox/checkout/:reference', 'POST /v1/billing/sandbox/checkout/:reference']));
  });

  it('never answers 5xx, answers errors with the envelope or an error page, and changes no row when it refuses', async () => {
    await checkFuzzedAnswers(fuzzTarget(sandbox), sandboxRequests, { seed, numRuns: Math.ceil(numRuns / 10) });
  });
});

/** The app under test, its tables as the stored state, HTML pages for the payer's browser, forged callbacks. */
function fuzzTarget(target: TestApp): FuzzTarget {
  return {
    inject: target.app.inject.bind(target.app),
    snapshot: () => tableChecksums(target.db),
    isBrowserPage,
    mustChangeNothing: isForgedCallback,
  };
}
