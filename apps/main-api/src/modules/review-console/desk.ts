import type { ApiKeyEnvironment, DocumentKind, VerificationType } from '@platform/db';
import type { ReviewDecision, ReviewDocument, Reviewer } from '../reviews/index.js';

// What the console shows and does, as plain data: the routes ask the review service (../reviews) through this
// interface, so the pages are rendered and tested from data alone.

interface QueueItem {
  sessionId: string;
  type: VerificationType;
  environment: ApiKeyEnvironment;
  appName: string | null;
  submittedAt: Date | null;
  /** The reviewer holding a live claim on it, if any. */
  claimedBy: string | null;
}

export interface QueuePage {
  items: QueueItem[];
  nextCursor: string | null;
}

export interface ReviewView extends QueueItem {
  status: string;
  /** The live claim's end, when claimed. */
  claimExpiresAt: Date | null;
  /** The submitted details as labelled values (ID type and number, or registration number and company name). */
  details: Array<{ label: string; value: string }>;
  /** The documents, each `url` a same-origin path with its signed link (docs/decisions.md#manual-review). */
  documents: ReviewDocument[];
  /** The session's status changes, oldest first, with the reasons given (an earlier request for documents). */
  history: Array<{ to: string; reason: string | null; at: Date }>;
  /** The document kinds a requires_input decision may ask for again. */
  resendableKinds: DocumentKind[];
}

export interface DecisionInput {
  decision: ReviewDecision;
  reason: string | undefined;
  documents: DocumentKind[];
}

/** The review operations the console needs, each acting as the signed-in reviewer. */
export interface ReviewDesk {
  queue(cursor: string | undefined): Promise<QueuePage>;
  review(sessionId: string, actor: Reviewer): Promise<ReviewView>;
  claim(sessionId: string, actor: Reviewer): Promise<void>;
  decide(sessionId: string, actor: Reviewer, input: DecisionInput): Promise<void>;
  /** Whether the user may review (the reviewer role in the platform organization, asked of the role policy). */
  mayReview(userId: string): Promise<boolean>;
}
