// Manual review (docs/decisions.md#manual-review): what the app wires (the routes, their schemas, the service, the
// decision metrics and the link key) and what the reviewers' console builds on: the service and its types, and
// `reviewerOf` to turn a request (the one the platform guard let in, or the console's signed-in reviewer) into the
// reviewer the service takes. Exports marked @public are the service's surface for its callers.

/** @public How long a claim holds. */
export { CLAIM_TTL_MS } from './claim-review.js';
export { documentLinkKeyOf } from './document-links.js';
export { reviewMetricsOf } from './metrics.js';
/** @public The answer to a link that does not work. */
export { INVALID_DOCUMENT_LINK } from './open-document.js';
/** @public Who acts, and what the service is built from. */
export type { Reviewer, ReviewServiceOptions } from './review-context.js';
/** @public What the service takes and answers. */
export {
  type DecidedReview,
  type DocumentLinkRequest,
  type OpenedDocument,
  type ReviewActor,
  type ReviewCheck,
  type ReviewClaimView,
  type ReviewDecision,
  type ReviewDecisionInput,
  type ReviewDetail,
  type ReviewDocument,
  type ReviewHistoryEntry,
  type ReviewOrganization,
  type ReviewQueueEntry,
  type ReviewQueuePage,
  reviewDecisions,
} from './review-views.js';
/** @public For the console's routes, as for these. */
export { reviewerOf, reviewRoutes } from './routes.js';
export { reviewSharedSchemas } from './schemas.js';
export { createReviewService, type ReviewService } from './service.js';
