import type {
  DocumentKind,
  VerificationCheckKind,
  VerificationCheckOutcome,
  VerificationCheckSource,
  VerificationSession,
  VerificationType,
} from '@platform/db';
import type { SubmittedDetails } from '@platform/verification-lifecycle';

// What the review service takes and answers (docs/decisions.md#manual-review): the queue, a review, claims,
// decisions and documents, as the routes and the console use them. Types marked @public are the console's (index.ts
// exports them).

/** The customer organization whose session it is: the reviewer must know whose customer they judge. @public */
export interface ReviewOrganization {
  id: string;
  name: string;
}

/**
 * Who moved a session: `kind` is the actor's kind (`reviewer`, `smile_id`, `test_value`, `hosted_page`, `api_key`,
 * `expiry_job`, ...); a reviewer is named by user id, and by name and email when their profile has them. The ids of
 * the customer's keys and members are not shown: a reviewer has no use for them. @public
 */
export interface ReviewActor {
  kind: string;
  userId: string | null;
  name: string | null;
  email: string | null;
}

/** A session in the reviewers' lists: waiting (the queue) or decided. @public */
export interface ReviewQueueEntry {
  sessionId: string;
  type: VerificationType;
  environment: 'live' | 'test';
  organization: ReviewOrganization;
  appName: string | null;
  status: VerificationSession['status'];
  /** When it was submitted (its creation, for a session from before submissions were recorded). */
  submittedAt: string;
  /** The reviewer whose claim holds, or null (always null once decided). */
  claimedBy: string | null;
  claimExpiresAt: string | null;
  /** The last decision, while the session is decided; null while it waits. */
  decision: ReviewDecision | null;
  decidedBy: ReviewActor | null;
  decidedAt: string | null;
  /** Why it was decided so (the reason given to the person), or null. */
  reason: string | null;
}

/** A page of a list (the queue, or the decided sessions), and the cursor of the next (null on the last). @public */
export interface ReviewQueuePage {
  reviews: ReviewQueueEntry[];
  nextCursor: string | null;
}

/** Which list: the sessions waiting for a reviewer, or those a reviewer was given and that are decided. @public */
export const reviewStates = ['waiting', 'decided'] as const;

/** A current document of the session, with its signed link. @public */
export interface ReviewDocument {
  id: string;
  kind: DocumentKind;
  contentType: string;
  sizeBytes: number;
  uploadedAt: string;
  /** The signed link to the document's bytes: works without the bearer token, for 5 minutes (`urlExpiresAt`). */
  url: string;
  urlExpiresAt: string;
}

/**
 * A check of a submission and its result, in this service's words (never what the person's data showed: that is
 * sealed evidence, not read here). @public
 */
export interface ReviewCheck {
  id: string;
  kind: VerificationCheckKind;
  source: VerificationCheckSource;
  outcome: VerificationCheckOutcome;
  /** The provider's result code or this service's code for what it found. */
  code: string | null;
  summary: string;
  /** Facts without personal data: which photo the selfie was compared with, which fields differ, how many hits. */
  details: Record<string, unknown>;
  /** What the check saw of the person (the registry's names, screening hits); null when none or erased. */
  evidence: Record<string, unknown> | null;
  /** The submission it checked. */
  submittedAt: string;
  createdAt: string;
}

/** A status change of the session: who made it, when and why. @public */
export interface ReviewHistoryEntry {
  from: VerificationSession['status'] | null;
  to: VerificationSession['status'];
  reason: string | null;
  at: string;
  actor: ReviewActor;
}

/** A session waiting for review or decided after one, as a reviewer sees it. @public */
export interface ReviewDetail extends ReviewQueueEntry {
  requiredDocuments: string[];
  /** When retention (or the customer) erased the documents and details; null while they are kept. */
  personalDataErasedAt: string | null;
  details: SubmittedDetails | null;
  documents: ReviewDocument[];
  /** The checks of its submissions, oldest first: beside the documents, they say what was found. */
  checks: ReviewCheck[];
  /** The session's status changes, oldest first, with who made them and the reasons given. */
  history: ReviewHistoryEntry[];
}

/** A claim as taken or renewed. @public */
export interface ReviewClaimView {
  sessionId: string;
  claimedBy: string;
  claimedAt: string;
  expiresAt: string;
}

export const reviewDecisions = ['verified', 'rejected', 'requires_input'] as const;
/** What a reviewer may decide. @public */
export type ReviewDecision = (typeof reviewDecisions)[number];

/** A reviewer's decision, as the route's body carries it. @public */
export interface ReviewDecisionInput {
  decision: ReviewDecision;
  /** Why; required unless verified. Becomes the session's lastError, shown to the person and sent in callbacks. */
  reason?: string | undefined;
  /** With requires_input only: the document kinds to send again (kinds of the session's type). */
  documents?: readonly DocumentKind[] | undefined;
}

/** The session once decided. @public */
export interface DecidedReview {
  sessionId: string;
  status: ReviewDecision;
  previousStatus: VerificationSession['status'];
  reason: string | null;
  resubmitDocuments: DocumentKind[] | null;
  decidedAt: string;
}

/** What a document link names, as its URL carries it (checked by openDocument). @public */
export interface DocumentLinkRequest {
  sessionId: string;
  documentId: string;
  reviewer: string;
  expires: number;
  signature: string;
}

/** A document's decrypted bytes, their type and the document's kind. @public */
export interface OpenedDocument {
  bytes: Buffer;
  contentType: string;
  kind: DocumentKind;
}
