import { createApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { memberships, organizations } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import {
  type FuzzRequest,
  type FuzzRequestOptions,
  type FuzzTarget,
  fuzzedCoverageProblems,
  fuzzRunSettings,
  type NoSuccessReason,
  type RouteUnderTest,
  requestsFor,
  requestsForRoutes,
  routesUnderTest,
} from '@platform/http/testing';
import { notifyUser } from '@platform/notifications';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MPESA_CALLBACK_PATH } from '../../src/modules/billing/providers/daraja/routes.js';
import { PAYSTACK_WEBHOOK_PATH } from '../../src/modules/billing/providers/paystack/routes.js';
import { documentLinkKeyOf, signDocumentLink } from '../../src/modules/reviews/document-links.js';
import { FAKE_DARAJA, type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../fake-paystack.js';
import {
  createTestApp,
  insertOrganization,
  insertUser,
  TEST_PROVIDER_TIMEOUT_MS,
  type TestApp,
  tokenFor,
} from '../helpers.js';
import { multipart, tinyPng } from '../images.js';
import { insertSessionToReview, temporaryVault } from '../review-fixtures.js';
import { insertSavedCard, insertSubscription } from '../subscription-fixtures.js';
import {
  bearerCredentials,
  goodOrganizationHeaders,
  idempotencyHeaders,
  organizationHeaders,
  signedPaystackEvents,
} from './headers.js';
import {
  isBrowserPage,
  isDocumentation,
  isFinanceRoute,
  isForgedCallback,
  isPlatformOperatorRoute,
  isReviewConsole,
  routeName,
} from './route-kinds.js';
import { AVATAR_ROUTE, avatarUploads } from './uploads.js';

// Every route main-api registers gets generated requests (valid-looking and hostile bodies, queries, headers
// and path parameters, as the seeded member, another user, or nobody). None may answer 5xx, every error answer
// is the envelope, and a refused request (4xx) or a forged provider callback changes no row.

const { seed, numRuns } = fuzzRunSettings({ seed: 20_261_124, numRuns: 2_200 });

const MEMBER_ID = 'user_fuzz_member';
/** The member's profile address, also in the member's token: an invitation to it can be accepted. */
const MEMBER_EMAIL = `${MEMBER_ID}@example.com`;
const OUTSIDER_ID = 'user_fuzz_outsider';
// The organization the /v1/organizations/:id routes meet, owned by the member, and the colleagues whose role the
// member changes or whom the member removes. Deleting it, or removing a colleague, succeeds: the team is then put
// back (restoreTeam), so the routes after it still meet something that exists.
const TEAM_ID = '7d1f0c6e-2b4a-4c7e-9a57-0d3c1e6bf022';
const COLLEAGUE_IDS = ['user_fuzz_colleague_1', 'user_fuzz_colleague_2', 'user_fuzz_colleague_3'];
// One user sends every request: the limit must not be what answers.
const UNREACHABLE_RATE_LIMIT = '100000000';
// The platform organization, where the member is a reviewer, so the review routes get past their guard; the sessions
// they meet wait for review: one that no request decides (details, claims and document links meet it) and a pool the
// decision route uses up.
const PLATFORM_ID = '1b6e2f3a-4c5d-4e7f-8a9b-0c1d2e3f4a5b';
const REVIEW_LINK_SECRET = 'a-review-link-secret-for-the-fuzz-run';
const DECIDABLE_SESSIONS = 30;
// The platform organization's finance member, who fuzzes the finance routes (the member is its reviewer: one role a
// membership), and the bank transfers it meets: the member's, all of one amount, which a confirmation may apply once.
const FINANCE_ID = 'user_fuzz_finance';
/** An admin of the platform organization, who ends users' console sessions. */
const PLATFORM_ADMIN_ID = 'user_fuzz_platform_admin';
const TRANSFERS_TO_CONFIRM = 30;
const TRANSFER_AMOUNT = 1_500;

// Routes that cannot answer 2xx to the requests this harness makes, and why. Every other route must answer 2xx
// at least once in a run, so the run is known to reach its handlers and not only its validation.
const NO_SUCCESS_HERE: Record<string, NoSuccessReason> = {
  'POST /v1/accounts': {
    reason: 'the member, the one user whose clean requests carry an email address, has a profile already',
    instead: [409],
  },
  'POST /v1/webhooks/endpoints/:environment/secret/reveal': {
    reason:
      'shows a secret once per environment and never after a rotation, so a run that rotates first only meets its 409',
    instead: [409],
  },
};

let t: TestApp;
let vault: Awaited<ReturnType<typeof temporaryVault>>;
let paystack: FakePaystack;
let daraja: FakeDaraja;
let routes: RouteUnderTest[];
let requests: fc.Arbitrary<FuzzRequest>;
/** A route's own requests (its share of `requests`), for topping up a run's coverage. */
let requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;
/** The member's own organization, which pays. */
let memberOrganizationId: string;

beforeAll(async () => {
  paystack = await startFakePaystack();
  daraja = await startFakeDaraja();
  vault = await temporaryVault();
  t = await createTestApp({
    deps: { vault: vault.vault },
    env: {
      PLATFORM_ORGANIZATION_ID: PLATFORM_ID,
      REVIEW_LINK_SECRET,
      // Providers configured (against local fakes) so their callback routes exist and payments get answers.
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: paystack.url,
      ...fakeDarajaEnv(daraja.url),
      PROVIDER_TIMEOUT_MS: String(TEST_PROVIDER_TIMEOUT_MS),
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      RENEWAL_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: UNREACHABLE_RATE_LIMIT,
    },
  });
  routes = routesUnderTest(t.app).filter(
    (route) =>
      !isDocumentation(route) && !isReviewConsole(route) && !isFinanceRoute(route) && !isPlatformOperatorRoute(route),
  );

  const { db } = t;
  await insertUser(db, { id: MEMBER_ID });
  await insertUser(db, { id: OUTSIDER_ID });
  const organizationId = await insertOrganization(db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
  memberOrganizationId = organizationId;
  const otherOrganizationId = await insertOrganization(db, { members: [{ userId: OUTSIDER_ID, role: 'owner' }] });
  for (const id of COLLEAGUE_IDS) await insertUser(db, { id });
  await restoreTeam(db);
  const authorizationCode = 'AUTH_fuzzapproved';
  paystack.approvedAuthorizations.add(authorizationCode);
  const cardId = await insertSavedCard(db, organizationId, { provider: 'paystack', authorizationCode });
  // A second card for the removal route: the first one pays for purchases and upgrades all run long.
  const removableCardId = await insertSavedCard(db, organizationId, { provider: 'paystack', authorizationCode });
  await insertSubscription(db, organizationId, {
    plan: 'core',
    seats: 5,
    cycle: 'monthly',
    anchor: new Date().toISOString().slice(0, 10),
  });
  const notification = await notifyUser(db, { userId: MEMBER_ID, title: 'Hello', message: 'Fuzz', type: 'info' });
  await insertOrganization(db, {
    id: PLATFORM_ID,
    name: 'The platform',
    members: [{ userId: MEMBER_ID, role: 'reviewer' }],
  });
  const reviewed = await insertSessionToReview(db, vault.vault, { organizationId: otherOrganizationId });
  const [reviewedDocument] = reviewed.documents;
  if (reviewedDocument === undefined) throw new Error('the session to review has no document');
  const decidable: string[] = [];
  for (let index = 0; index < DECIDABLE_SESSIONS; index += 1) {
    decidable.push((await insertSessionToReview(db, vault.vault, { organizationId: otherOrganizationId })).sessionId);
  }
  const linkKey = documentLinkKeyOf({ secret: REVIEW_LINK_SECRET });
  // Signed when the request is made, so the link is fresh however long the run takes.
  const documentLink = fc
    .constant(null)
    .map(() =>
      Object.fromEntries(
        new URLSearchParams(
          signDocumentLink(
            linkKey,
            { sessionId: reviewed.sessionId, documentId: reviewedDocument.id, reviewerId: MEMBER_ID },
            new Date(),
          ).query,
        ),
      ),
    );
  const apiKey = await createApiKey(db, { organizationId, environment: 'test' });
  const memberToken = await tokenFor(MEMBER_ID, { email: MEMBER_EMAIL });
  const member = { authorization: `Bearer ${memberToken}` };
  // An invitation of the member to a third organization (to accept) and one the member's organization sent (to
  // revoke), so the invitation routes meet invitations that exist.
  const invitingOrganizationId = await insertOrganization(db, { members: [{ userId: OUTSIDER_ID, role: 'owner' }] });
  const inviteTo = async (organizationId: string, userId: string, email: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${organizationId}/invitations`,
      headers: { authorization: `Bearer ${await tokenFor(userId)}` },
      payload: { email, role: 'developer' },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ data: { id: string } }>().data.id;
  };
  const acceptableInvitationId = await inviteTo(invitingOrganizationId, OUTSIDER_ID, MEMBER_EMAIL);
  const revocableInvitationId = await inviteTo(organizationId, MEMBER_ID, 'invitee@example.com');
  // A card payment (for the payment and checkout pages), an answered M-Pesa prompt (for a callback that settles
  // it) and an uploaded avatar (for the file route), so that those routes also meet things that exist.
  const memberOf = { ...member, 'x-organization-id': organizationId };
  const card = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: memberOf,
    payload: { method: 'card', amount: 1_000 },
  });
  const { reference } = card.json<{ reference: string }>();
  // A payment the saved card paid at once: its receipt exists.
  const paid = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: memberOf,
    payload: { method: 'saved_method', amount: 500, paymentMethodId: cardId },
  });
  expect(paid.statusCode).toBe(200);
  const paidReference = paid.json<{ reference: string }>().reference;
  // A payment by bank transfer: its invoice exists.
  const transfer = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: memberOf,
    payload: { method: 'bank_transfer', amount: TRANSFER_AMOUNT },
  });
  expect(transfer.statusCode).toBe(200);
  const transferReference = transfer.json<{ reference: string }>().reference;
  const prompt = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: memberOf,
    payload: { method: 'mobile_money', amount: 100, phone: '0712345678' },
  });
  expect(prompt.statusCode).toBe(200);
  const { checkoutRequestId } = daraja.answer(daraja.lastPrompt().checkoutRequestId, 0);
  const mpesaCallback = daraja.callbackBody(checkoutRequestId);
  const avatar = multipart([{ field: 'file', filename: 'me.png', contentType: 'image/png', data: tinyPng() }]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/avatar',
    headers: { ...member, ...avatar.headers },
    payload: avatar.payload,
  });
  const avatarPath = new URL(uploaded.json<{ data: { url: string } }>().data.url).pathname.replace(
    /^\/v1\/files\//,
    '',
  );

  const credentials = bearerCredentials({
    member: memberToken,
    outsider: await tokenFor(OUTSIDER_ID),
    expired: await tokenFor(MEMBER_ID, { now: new Date('2020-01-01T00:00:00Z'), expiresIn: 60 }),
    unknownUser: await tokenFor('user_without_a_row'),
  });
  const routeRequestOptions: FuzzRequestOptions = {
    lookup: (id) => t.app.getSchema(id) as Record<string, unknown> | undefined,
    credentials,
    headers: organizationHeaders(organizationId, otherOrganizationId),
    // Clean requests come from the member for the member's organization, so they can get past the guards.
    clean: { credentials: fc.constant(member), headers: goodOrganizationHeaders(organizationId) },
    bodyExamples: {
      'POST /v1/billing/pay': fc.oneof(
        fc.record({
          method: fc.constant('card'),
          // Mostly amounts a card may pay, so that the route succeeds in a run however many routes share it.
          amount: fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: -5, max: 2_000_000 }) },
          ),
        }),
        fc.record({
          method: fc.constant('mobile_money'),
          amount: fc.integer({ min: 1, max: 200_000 }),
          phone: fc.constantFrom('0712345678', '+254 733 123 456', '254110000000', '0100000000', '0712'),
        }),
        fc.record({
          method: fc.constant('saved_method'),
          amount: fc.integer({ min: 1, max: 5_000 }),
          paymentMethodId: fc.constantFrom(cardId, '00000000-0000-4000-8000-000000000000'),
        }),
        fc.record({
          method: fc.constant('bank_transfer'),
          amount: fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: 1, max: 10_000_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: -5, max: 3_000_000_000 }) },
          ),
        }),
        fc.record({
          method: fc.constantFrom('card', 'mobile_money', 'saved_method', 'bank_transfer'),
          amount: fc.constant(0),
          metadata: fc.record({
            type: fc.constant('mail_subscription'),
            plan: fc.constantFrom('core', 'growth', 'scale'),
            seats: fc.integer({ min: -1, max: 1e7 }),
            billingCycle: fc.constantFrom('monthly', 'yearly'),
          }),
        }),
      ),
      'POST /v1/billing/upgrade': fc.record(
        {
          newPlan: fc.constantFrom('core', 'growth', 'scale'),
          // Mostly seat counts whose price a card may pay, so changes go through and are charged (or, priced
          // lower, are scheduled for the period end), however few clean requests the route gets in a run.
          newSeats: fc.oneof(
            { weight: 9, arbitrary: fc.integer({ min: 1, max: 300 }) },
            { weight: 1, arbitrary: fc.integer({ min: -1, max: 1e7 }) },
          ),
          newCycle: fc.constantFrom('monthly', 'yearly'),
          paymentMethodId: fc.oneof(
            { weight: 9, arbitrary: fc.constant(cardId) },
            { weight: 1, arbitrary: fc.constant('00000000-0000-4000-8000-000000000000') },
          ),
        },
        { requiredKeys: ['newPlan', 'newSeats', 'newCycle'] },
      ),
      [`POST ${MPESA_CALLBACK_PATH}/:token`]: fc.oneof(
        fc.constant(mpesaCallback),
        fc.record({
          Body: fc.record({
            stkCallback: fc.record({
              MerchantRequestID: fc.string(),
              CheckoutRequestID: fc.oneof(fc.constant(checkoutRequestId), fc.string()),
              ResultCode: fc.constantFrom(0, 1, 1032, 1037, '0'),
              ResultDesc: fc.string(),
            }),
          }),
        }),
      ),
      'POST /v1/organizations': fc.record(
        {
          name: fc.oneof(fc.constantFrom('Wanjiku Ventures', ' Otieno Logistics '), fc.string({ maxLength: 120 })),
          kraPin: fc.constantFrom('P051234567Q', 'p051234567q', 'P05123456Q'),
        },
        { requiredKeys: ['name'] },
      ),
      'POST /v1/organizations/:id/invitations': fc.record({
        email: fc.oneof(fc.emailAddress(), fc.constantFrom('colleague', 'a@b.example, c@d.example', MEMBER_EMAIL)),
        role: fc.constantFrom('owner', 'admin', 'developer', 'billing', 'member', 'root'),
      }),
      'POST /v1/reviews/:sessionId/decision': fc.oneof(
        fc.constant({ decision: 'verified' }),
        fc.record(
          {
            decision: fc.constantFrom('verified', 'rejected', 'requires_input', 'maybe'),
            reason: fc.oneof(fc.constantFrom('The photo is blurred', '  '), fc.string({ maxLength: 600 })),
            documents: fc.array(fc.constantFrom('selfie', 'id_document_back', 'cr12', 'passport'), {
              maxLength: 3,
            }),
          },
          { requiredKeys: ['decision'] },
        ),
      ),
      'PATCH /v1/accounts/me': fc.record(
        {
          firstName: fc.string({ maxLength: 120 }),
          lastName: fc.string(),
          phone: fc.constantFrom('0712345678', '0733123456', '12'),
          dob: fc.constantFrom('1990-04-12', '2999-01-01', '1990-02-30'),
        },
        { requiredKeys: [] },
      ),
    },
    pathValues: {
      id: fc.constantFrom(notification.id, removableCardId, apiKey.id),
      invitationId: fc.constantFrom(acceptableInvitationId, revocableInvitationId, revocableInvitationId),
      environment: fc.constantFrom('live', 'test', 'LIVE'),
      token: fc.constantFrom(FAKE_DARAJA.callbackToken),
      reference: fc.constant(reference),
      '*': fc.constant(avatarPath),
    },

    // Routes under /v1/organizations/:id meet an organization of theirs: the team, which they may delete (it is
    // put back), or the member's organization, whose invitation they may revoke.
    pathValuesUnder: {
      '/v1/organizations/:id': { id: fc.constant(TEAM_ID), userId: fc.constantFrom(...COLLEAGUE_IDS) },
      '/v1/organizations/:id/invitations': { id: fc.constant(organizationId) },
      '/v1/organizations/:id/audit-events': { id: fc.constant(organizationId) },
      '/v1/billing/payments/:reference/receipt': { reference: fc.constantFrom(paidReference, reference) },
      '/v1/billing/payments/:reference/invoice': { reference: fc.constantFrom(transferReference, reference) },
      // The key this route may revoke (revoking it again answers 200 too), rather than any id the others share.
      '/v1/api-keys/:id': { id: fc.constantFrom(apiKey.id, notification.id) },
      '/v1/reviews/:sessionId': {
        sessionId: fc.constant(reviewed.sessionId),
        documentId: fc.constantFrom(...reviewed.documents.map((document) => document.id)),
      },
      '/v1/reviews/:sessionId/decision': { sessionId: fc.constantFrom(...decidable) },
      // The link the query carries is signed for this document: the path names it, so the route can answer 200.
      '/v1/reviews/:sessionId/documents/:documentId/content': {
        sessionId: fc.constant(reviewed.sessionId),
        documentId: fc.constant(reviewedDocument.id),
      },
    },
    queryExamples: {
      'GET /v1/reviews/:sessionId/documents/:documentId/content': documentLink,
      'GET /v1/billing/checkout/complete': fc.oneof(
        fc.record({ reference: fc.constant(reference) }),
        fc.record({ trxref: fc.constant(reference) }),
      ),
    },
  };
  const avatars = avatarUploads(credentials);
  requests = fc.oneof(
    { weight: 40, arbitrary: requestsForRoutes(routes, routeRequestOptions) },
    { weight: 2, arbitrary: signedPaystackEvents() },
    { weight: 2, arbitrary: avatars },
  );
  // The avatar route's uploads are its share too: multipart bodies, which its schema's requests cannot be.
  requestsOf = (route) =>
    routeName(route) === AVATAR_ROUTE
      ? fc.oneof(requestsFor(route, routeRequestOptions), avatars)
      : requestsFor(route, routeRequestOptions);
});

afterAll(async () => {
  await t?.close();
  await vault?.remove();
  await paystack?.close();
  await daraja?.close();
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
    const problems = await fuzzedCoverageProblems(fuzzTarget(t, restoreTeamAfterRemovals), run, { seed, numRuns });
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

/** The member's team organization and its colleagues, as far as they are missing (the first time: all of it). */
async function restoreTeam(db: Database): Promise<void> {
  await db.insert(organizations).values({ id: TEAM_ID, name: 'Fuzz team' }).onConflictDoNothing();
  await db
    .insert(memberships)
    .values([
      { organizationId: TEAM_ID, userId: MEMBER_ID, role: 'owner' },
      ...COLLEAGUE_IDS.map((userId) => ({ organizationId: TEAM_ID, userId, role: 'developer' as const })),
    ])
    .onConflictDoNothing();
}

/** After a deletion under /v1/organizations/ succeeded (the team, or a colleague), puts the team back. */
async function restoreTeamAfterRemovals(options: InjectOptions, statusCode: number): Promise<void> {
  const removed = options.method === 'DELETE' && String(options.url).startsWith('/v1/organizations/');
  if (removed && statusCode >= 200 && statusCode < 300) await restoreTeam(t.db);
}

/**
 * The app under test, its tables as the stored state, HTML pages for the payer's browser, forged callbacks.
 * `afterAnswer` runs after each request, before the next one's state is taken.
 */
function fuzzTarget(
  target: TestApp,
  afterAnswer?: (options: InjectOptions, statusCode: number) => Promise<void>,
): FuzzTarget {
  return {
    inject: async (options) => {
      const response = await target.app.inject(options);
      await afterAnswer?.(options, response.statusCode);
      return response;
    },
    snapshot: () => tableChecksums(target.db),
    isBrowserPage,
    mustChangeNothing: isForgedCallback,
  };
}
