import { claimReview } from './claim-review.js';
import { decideReview } from './decide-review.js';
import { listDecided } from './decided-reviews.js';
import { openDocument } from './open-document.js';
import { getReview } from './read-review.js';
import { isReviewer, type Reviewer, type ReviewServiceOptions } from './review-context.js';
import { listQueue } from './review-queue.js';
import type {
  DecidedReview,
  DocumentLinkRequest,
  OpenedDocument,
  ReviewClaimView,
  ReviewDecisionInput,
  ReviewDetail,
  ReviewQueuePage,
} from './review-views.js';

// Manual review (docs/decisions.md#manual-review): the queue of sessions waiting for a person, what was submitted,
// the documents through signed links, claims and decisions. The platform organization's reviewers are the only
// callers: routes (and the console) let only them in, through the organization guard's `organization: 'platform'`
// (the console through isReviewer); this service trusts the reviewer it is given. Each use case is its own file:
// review-queue.ts, decided-reviews.ts, read-review.ts, claim-review.ts, decide-review.ts, open-document.ts;
// review-context.ts is what they share, review-views.ts what they take and answer.

export interface ReviewService {
  listQueue(page: { limit: number; cursor?: string | undefined }): Promise<ReviewQueuePage>;
  /** The sessions given to reviewers that are decided, newest decision first (docs/decisions.md#decided-reviews). */
  listDecided(page: { limit: number; cursor?: string | undefined }): Promise<ReviewQueuePage>;
  getReview(reviewer: Reviewer, sessionId: string): Promise<ReviewDetail>;
  claimReview(reviewer: Reviewer, sessionId: string): Promise<ReviewClaimView>;
  decideReview(reviewer: Reviewer, sessionId: string, input: ReviewDecisionInput): Promise<DecidedReview>;
  openDocument(
    link: DocumentLinkRequest,
    request: { requestId: string | null; ip: string | null },
  ): Promise<OpenedDocument>;
  /** Whether the user may review: the reviewer role in the platform organization, asked of the role policy. */
  isReviewer(userId: string): Promise<boolean>;
}

/**
 * The review service over its dependencies; when no platform organization is set, every operation refuses (403) and
 * isReviewer is false.
 */
export function createReviewService(options: ReviewServiceOptions): ReviewService {
  return {
    listQueue: (page) => listQueue(options, page),
    listDecided: (page) => listDecided(options, page),
    getReview: (reviewer, sessionId) => getReview(options, reviewer, sessionId),
    claimReview: (reviewer, sessionId) => claimReview(options, reviewer, sessionId),
    decideReview: (reviewer, sessionId, input) => decideReview(options, reviewer, sessionId, input),
    openDocument: (link, request) => openDocument(options, link, request),
    isReviewer: (userId) => isReviewer(options, userId),
  };
}
