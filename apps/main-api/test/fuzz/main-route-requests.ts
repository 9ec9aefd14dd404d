import { createApiKey } from '@platform/api-keys';
import {
  type FuzzRequest,
  type FuzzRequestOptions,
  type RouteUnderTest,
  requestsFor,
  requestsForRoutes,
  routesUnderTest,
} from '@platform/http/testing';
import { notifyUser } from '@platform/notifications';
import { enqueueWebhookEvent } from '@platform/webhooks';
import fc from 'fast-check';
import { expect } from 'vitest';
import { MPESA_CALLBACK_PATH } from '../../src/modules/billing/providers/daraja/routes.js';
import { documentLinkKeyOf, signDocumentLink } from '../../src/modules/reviews/document-links.js';
import { FAKE_DARAJA } from '../fake-daraja.js';
import { insertOrganization, insertUser, tokenFor } from '../helpers.js';
import { multipart, tinyPng } from '../images.js';
import { insertSessionToReview } from '../review-fixtures.js';
import { insertSavedCard, insertSubscription } from '../subscription-fixtures.js';
import { insertPendingSession } from '../verification-session-fixtures.js';
import {
  COLLEAGUE_IDS,
  DECIDABLE_SESSIONS,
  type FuzzApp,
  MEMBER_EMAIL,
  MEMBER_ID,
  OUTSIDER_ID,
  REVIEW_LINK_SECRET,
  restoreTeam,
  seedPlatform,
  TEAM_ID,
  TRANSFER_AMOUNT,
} from './fuzz-app.js';
import { bearerCredentials, goodOrganizationHeaders, organizationHeaders, signedPaystackEvents } from './headers.js';
import { isDocumentation, isFinanceRoute, isPlatformOperatorRoute, isReviewConsole, routeName } from './route-kinds.js';
import { AVATAR_ROUTE, avatarUploads } from './uploads.js';

/** The routes of the shared run, their requests, and each route's own share of them (to top up its coverage). */
export interface MainRouteRequests {
  routes: RouteUnderTest[];
  requests: fc.Arbitrary<FuzzRequest>;
  requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;
}

/**
 * Seeds what the main-api routes meet (the member's organizations, team, cards, subscription, payments,
 * invitations, sessions to review, an avatar) and makes the requests of the shared run from the routes' schemas.
 */
export async function mainRouteRequests({ t, vault, paystack, daraja }: FuzzApp): Promise<MainRouteRequests> {
  const routes = routesUnderTest(t.app).filter(
    (route) =>
      !isDocumentation(route) && !isReviewConsole(route) && !isFinanceRoute(route) && !isPlatformOperatorRoute(route),
  );

  const { db } = t;
  await insertUser(db, { id: MEMBER_ID });
  await insertUser(db, { id: OUTSIDER_ID });
  const organizationId = await insertOrganization(db, { members: [{ userId: MEMBER_ID, role: 'owner' }] });
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
  await seedPlatform(db);
  const reviewed = await insertSessionToReview(db, vault.vault, { organizationId: otherOrganizationId });
  const [reviewedDocument] = reviewed.documents;
  if (reviewedDocument === undefined) throw new Error('the session to review has no document');
  const decidable: string[] = [];
  for (let index = 0; index < DECIDABLE_SESSIONS; index += 1) {
    decidable.push((await insertSessionToReview(db, vault.vault, { organizationId: otherOrganizationId })).sessionId);
  }
  // The member's organization's sessions: one to read, and pending ones its cancels may end (each once).
  const readableSession = await insertPendingSession(db, { organizationId });
  const otherOrganizationSession = await insertPendingSession(db, { organizationId: otherOrganizationId });
  const cancelable: string[] = [];
  for (let index = 0; index < DECIDABLE_SESSIONS; index += 1) {
    cancelable.push(await insertPendingSession(db, { organizationId }));
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
  // An event of the member's organization, for the delivery log's routes to show and redeliver.
  const webhookEvent = await enqueueWebhookEvent(db, {
    organizationId,
    environment: 'test',
    type: 'verification_session.verified',
    data: { status: 'verified' },
    targetUrl: null,
    now: new Date(),
  });
  const memberToken = await tokenFor(MEMBER_ID, { email: MEMBER_EMAIL });
  const member = { authorization: `Bearer ${memberToken}` };
  // An invitation of the member to a third organization (to accept), one the member's organization sent (to
  // revoke) and another (to resend: a revoked one is not), so the invitation routes meet invitations that exist.
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
  const resendableInvitationId = await inviteTo(organizationId, MEMBER_ID, 'reminded@example.com');
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
      '/v1/organizations/:id/invitations/:invitationId/resend': {
        id: fc.constant(organizationId),
        invitationId: fc.constantFrom(resendableInvitationId, acceptableInvitationId),
      },
      '/v1/organizations/:id/audit-events': { id: fc.constant(organizationId) },
      '/v1/billing/payments/:reference/receipt': { reference: fc.constantFrom(paidReference, reference) },
      '/v1/billing/payments/:reference/invoice': { reference: fc.constantFrom(transferReference, reference) },
      // The key this route may revoke (revoking it again answers 200 too), rather than any id the others share.
      '/v1/api-keys/:id': { id: fc.constantFrom(apiKey.id, notification.id) },
      '/v1/webhooks/events/:eventId': { eventId: fc.constantFrom(webhookEvent.id, webhookEvent.id, apiKey.id) },
      '/v1/reviews/:sessionId': {
        sessionId: fc.constant(reviewed.sessionId),
        documentId: fc.constantFrom(...reviewed.documents.map((document) => document.id)),
      },
      '/v1/reviews/:sessionId/decision': { sessionId: fc.constantFrom(...decidable) },
      '/v1/verification-sessions/:id': { id: fc.constantFrom(readableSession, otherOrganizationSession) },
      '/v1/verification-sessions/:id/cancel': { id: fc.constantFrom(...cancelable, otherOrganizationSession) },
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
  const requests = fc.oneof(
    { weight: 40, arbitrary: requestsForRoutes(routes, routeRequestOptions) },
    { weight: 2, arbitrary: signedPaystackEvents() },
    { weight: 2, arbitrary: avatars },
  );
  // The avatar route's uploads are its share too: multipart bodies, which its schema's requests cannot be.
  const requestsOf = (route: RouteUnderTest) =>
    routeName(route) === AVATAR_ROUTE
      ? fc.oneof(requestsFor(route, routeRequestOptions), avatars)
      : requestsFor(route, routeRequestOptions);
  return { routes, requests, requestsOf };
}
