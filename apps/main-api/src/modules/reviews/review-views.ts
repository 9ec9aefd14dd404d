import type { DocumentKind, IdType, VerificationSession, VerificationType } from '@platform/db';

// What the review service takes and answers (docs/decisions.md#manual-review): the queue, a review, claims,
// decisions and documents, as the routes and the console use them. Types marked @public are the console's (index.ts
// exports them).

/** One session waiting for review, as the queue lists it. @public */
export interface ReviewQueueEntry {
  sessionId: string;
  type: VerificationType;
  environment: 'live' | 'test';
  appName: string | null;
  /** When it was submitted (its creation, for a session from before submissions were recorded). */
  submittedAt: string;
  /** The reviewer whose claim holds, or null. */
  claimedBy: string | null;
  claimExpiresAt: string | null;
}

/** A page of the queue, and the cursor of the next (null on the last). @public */
export interface ReviewQueuePage {
  reviews: ReviewQueueEntry[];
  nextCursor: string | null;
}

/** What the person stated at submission, opened from its sealed form. @public */
export type SubmittedDetails =
  | { type: 'kyc'; idType: IdType; idNumber: string }
  | { type: 'kyb'; registrationNumber: string; companyName: string | null };

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

/** A session waiting for review, as a reviewer sees it. @public */
export interface ReviewDetail extends ReviewQueueEntry {
  status: VerificationSession['status'];
  requiredDocuments: string[];
  details: SubmittedDetails | null;
  documents: ReviewDocument[];
  /** The session's status changes, oldest first, with the reasons given (an earlier requires_input, say). */
  history: Array<{ from: string | null; to: string; reason: string | null; at: string }>;
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
