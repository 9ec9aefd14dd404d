// Manual review (docs/decisions.md#manual-review): what the app wires (the routes, their schemas, the service, the
// decision metrics and the link key) and what the reviewers' console builds on: the service and its types, and
// `reviewerOf` to turn a request (the one the platform guard let in, or the console's signed-in reviewer) into the
// reviewer the service takes.

export { documentLinkKeyOf } from './document-links.js';
export { reviewMetricsOf } from './metrics.js';
/** @public For the console's routes, as for these. */
export { reviewerOf, reviewRoutes } from './routes.js';
export { reviewSharedSchemas } from './schemas.js';
/** @public The service the reviewers' console builds on. */
export {
  CLAIM_TTL_MS,
  createReviewService,
  type DecidedReview,
  type DocumentLinkRequest,
  INVALID_DOCUMENT_LINK,
  type OpenedDocument,
  type ReviewClaimView,
  type ReviewDecision,
  type ReviewDecisionInput,
  type ReviewDetail,
  type ReviewDocument,
  type Reviewer,
  type ReviewQueueEntry,
  type ReviewQueuePage,
  type ReviewService,
  type ReviewServiceOptions,
  reviewDecisions,
  type SubmittedDetails,
} from './service.js';
