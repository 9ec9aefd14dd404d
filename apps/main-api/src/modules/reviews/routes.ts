import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import type { Reviewer } from './review-context.js';
import type { OpenedDocument } from './review-views.js';
import {
  DocumentLinkQuery,
  ReviewClaimResponseSchema,
  ReviewDecisionBodySchema,
  ReviewDecisionResponseSchema,
  ReviewDetailResponseSchema,
  ReviewDocumentParams,
  ReviewQueueQuery,
  ReviewQueueSchema,
  ReviewSessionParams,
} from './schemas.js';
import type { ReviewService } from './service.js';

/**
 * The reviewer a request acts as, with its id and IP for the log: the user the platform guard let in, or the one the
 * caller confirmed itself (the console's signed-in reviewer, whose routes have no bearer token). @public
 */
export function reviewerOf(request: FastifyRequest, userId: string = request.user.id): Reviewer {
  return { userId, requestId: request.id, ip: request.ip };
}

/**
 * Headers of every served document: never cached or sniffed, inert when opened (a sandbox with no script, no plugin,
 * no form and nothing loaded, whatever the bytes hold), framed only by this origin, loaded only by this origin, and its
 * URL (the credential) never sent on as a referrer (docs/decisions.md#documents-served-to-reviewers).
 */
const DOCUMENT_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'self'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

/** The images the console shows in place; anything else (a PDF) is a download, opened by the reviewer's own reader. */
const SHOWN_IN_PLACE: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** `inline` for an image the console shows, else `attachment` with a file name of the document's kind. */
function dispositionOf(document: OpenedDocument): string {
  if (SHOWN_IN_PLACE[document.contentType] !== undefined) return 'inline';
  const extension = document.contentType === 'application/pdf' ? 'pdf' : 'bin';
  return `attachment; filename="${document.kind}.${extension}"`;
}

/**
 * Manual review (docs/decisions.md#manual-review), for the reviewers of the platform's own organization only
 * (`organization: 'platform'`: everyone else, owners and admins included, is 403). A session id is its hosted page's
 * credential, so every route here is logged by its pattern (`urlCarriesSecret`), the queue too: its cursor holds one.
 */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ service: ReviewService }> = async (app, { service }) => {
  const tags = ['reviews'];
  const reviewers = { organization: 'platform', requires: 'reviews:decide', urlCarriesSecret: true } as const;

  app.get(
    '/v1/reviews',
    {
      config: reviewers,
      schema: {
        tags,
        summary: 'The sessions waiting for a reviewer, or those decided',
        description:
          'state=waiting (the default): verification sessions in processing that a person decides (decision source ' +
          'manual), oldest submission first; claimedBy names the reviewer whose 30-minute claim holds. ' +
          'state=decided: the sessions given to reviewers that have a decision, newest decision first, with who ' +
          'decided, when and why. Each names the customer organization and app. A page at a time: pass nextCursor ' +
          'as cursor for the next page. For users with the role reviewer in the platform organization only.',
        security: bearerSecurity,
        querystring: ReviewQueueQuery,
        response: { 200: ref(ReviewQueueSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { state, ...page } = request.query;
      const data = state === 'decided' ? await service.listDecided(page) : await service.listQueue(page);
      return { success: true as const, data };
    },
  );

  app.get(
    '/v1/reviews/:sessionId',
    {
      config: reviewers,
      schema: {
        tags,
        summary: 'A session waiting for review or decided after one, with what was submitted and its history',
        description:
          'The submitted details (decrypted), the customer organization, the documents still stored, each with a ' +
          'signed link valid 5 minutes, and the history: every status change with who made it, when and why. A ' +
          'decided session also has decision, decidedBy, decidedAt and reason; once retention erased its documents ' +
          'and details, personalDataErasedAt says when. 404 for a session never given to a reviewer (decided by ' +
          'the sandbox or Smile ID alone) or not yet submitted. Reading it is recorded in the audit log ' +
          '(review.details_viewed). For users with the role reviewer in the platform organization only.',
        security: bearerSecurity,
        params: ReviewSessionParams,
        response: { 200: ref(ReviewDetailResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.getReview(reviewerOf(request), request.params.sessionId),
    }),
  );

  app.post(
    '/v1/reviews/:sessionId/claim',
    {
      config: reviewers,
      schema: {
        tags,
        summary: 'Claim a session for 30 minutes',
        description:
          'While the claim holds, other reviewers can neither claim nor decide the session (409 naming when the ' +
          'claim ends). Claiming again renews your own claim; an expired claim is taken over. 404 for a session no ' +
          'reviewer decides, 409 for one no longer waiting. For users with the role reviewer in the platform ' +
          'organization only.',
        security: bearerSecurity,
        params: ReviewSessionParams,
        response: { 200: ref(ReviewClaimResponseSchema), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Session claimed',
      data: await service.claimReview(reviewerOf(request), request.params.sessionId),
    }),
  );

  app.post(
    '/v1/reviews/:sessionId/decision',
    {
      config: reviewers,
      schema: {
        tags,
        summary: 'Decide a session',
        description:
          'verified, rejected (reason required) or requires_input (reason required; documents: the kinds to send ' +
          'again). The session moves as any decision moves it: the held price is captured (verified, rejected), ' +
          "the callback is sent, a platform user's kycStatus follows, the organization's members are notified. " +
          "Deciding without a claim claims first: another reviewer's live claim is 409, and of two reviewers " +
          'deciding at once one wins, the other gets 409. 409 also for a session no longer waiting. For users with ' +
          'the role reviewer in the platform organization only.',
        security: bearerSecurity,
        params: ReviewSessionParams,
        body: ReviewDecisionBodySchema,
        response: { 200: ref(ReviewDecisionResponseSchema), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const decided = await service.decideReview(reviewerOf(request), request.params.sessionId, request.body);
      request.log.info({ decision: decided.status }, 'Review decided');
      return { success: true as const, message: `Session ${decided.status}`, data: decided };
    },
  );

  app.get(
    '/v1/reviews/:sessionId/documents/:documentId/content',
    {
      // The signed link is the credential (no bearer token, so an <img> can load it): its query never reaches a log.
      config: { public: true, urlCarriesSecret: true },
      // A HEAD would count as a view without showing anything.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'A document of a session under review (signed link)',
        description:
          'The decrypted document, as the url of GET /v1/reviews/:sessionId gives it: no bearer token, the link ' +
          'is the credential, for 5 minutes, for the reviewer it was issued to while they keep the role, while the ' +
          'session waits for review or after its decision, and while the document is stored (404 once replaced or ' +
          'erased). A changed or expired link is 403 and nothing is read. Images are served ' +
          'inline, PDFs as a download (Content-Disposition: attachment); both no-store, nosniff and under a ' +
          'sandboxing CSP that runs and loads nothing. Each opening is recorded in the audit log ' +
          '(review.document_viewed).',
        params: ReviewDocumentParams,
        querystring: DocumentLinkQuery,
        response: errorResponses(400, 403, 404),
      },
    },
    async (request, reply) => {
      const { sessionId, documentId } = request.params;
      const { reviewer, expires, signature } = request.query;
      const document = await service.openDocument(
        { sessionId, documentId, reviewer, expires, signature },
        { requestId: request.id, ip: request.ip },
      );
      return reply
        .headers(DOCUMENT_HEADERS)
        .header('content-disposition', dispositionOf(document))
        .type(document.contentType)
        .send(document.bytes);
    },
  );
};
