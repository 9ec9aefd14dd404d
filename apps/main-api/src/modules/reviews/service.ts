import type { KeyObject } from 'node:crypto';
import {
  type Database,
  type DatabaseExecutor,
  type DocumentKind,
  documentContentTypes,
  documentKindsOf,
  type IdType,
  unitOfWork,
  type VerificationDocument,
  type VerificationSession,
  type VerificationType,
} from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { conflict, forbidden, internalError, invalidFields, notFound, type ValidationDetail } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import {
  moveSession,
  SESSION_NOT_FOUND,
  type SessionDecision,
  submittedDetailsKey,
} from '@platform/verification-lifecycle';
import { type AuditContext, addAuditEvent, recordAuditEvent } from '../audit/index.js';
import { allows, membershipIn, refusalMessage } from '../organizations/index.js';
import { documentContentPath, isValidDocumentLink, signDocumentLink } from './document-links.js';
import {
  addClaimDeletion,
  claimSession,
  findClaim,
  findCurrentDocument,
  findManualSession,
  listCurrentDocuments,
  listQueueRows,
  listTransitions,
  type ReviewSessionRow,
} from './repository.js';

// Manual review (docs/decisions.md#manual-review): the queue of sessions waiting for a person, what was submitted,
// the documents through signed links, claims and decisions. The platform organization's reviewers are the only
// callers: routes (and the console) let only them in, through the organization guard's `organization: 'platform'`;
// this service trusts the reviewer it is given. Decisions go through the session lifecycle, so money, the callback,
// kycStatus and notifications follow exactly as for any other decision. Types marked @public are the console's
// (index.ts exports them).

/** How long a claim keeps other reviewers off a session. */
export const CLAIM_TTL_MS = 30 * 60 * 1000;

const DOCUMENT_NOT_FOUND = 'Document not found';
/** One answer for every link that does not work: changed, expired, or its reviewer no longer one. */
export const INVALID_DOCUMENT_LINK = 'This document link is not valid or has expired';

/** The reviewer who acts, as confirmed by the caller (the organization guard), and the request, for the audit log. */
export interface Reviewer {
  userId: string;
  requestId: string | null;
  ip: string | null;
}

export interface ReviewServiceOptions {
  db: Database;
  vault: DocumentVault;
  now: () => Date;
  /** The platform's own organization: where reviewers are, and whose audit log records their work. */
  platformOrganizationId: string | undefined;
  /** Signs and checks document links (documentLinkKeyOf). */
  linkKey: KeyObject;
  /** Document links start with it (PUBLIC_URL, no trailing slash). */
  publicUrl: string;
  /** Told of each decision after it committed (the decision-duration histogram). */
  onDecided?: ((decision: SessionDecision) => void) | undefined;
}

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

export interface ReviewService {
  listQueue(page: { limit: number; cursor?: string | undefined }): Promise<ReviewQueuePage>;
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

function isWaiting(session: VerificationSession): boolean {
  return session.status === 'processing';
}

function auditOf(actor: Reviewer): AuditContext {
  return { actorUserId: actor.userId, requestId: actor.requestId, ip: actor.ip };
}

/** The review service over its dependencies; every function refuses (403) when no platform organization is set. */
export function createReviewService(options: ReviewServiceOptions): ReviewService {
  const { db, vault, now, linkKey, publicUrl } = options;

  function platformOrganization(): string {
    if (options.platformOrganizationId === undefined) throw forbidden(refusalMessage('reviews:decide'));
    return options.platformOrganizationId;
  }

  /** The session while it waits for a reviewer; 404 for anything else (unknown, sandbox-decided, or not waiting). */
  async function waitingSession(executor: DatabaseExecutor, sessionId: string): Promise<ReviewSessionRow> {
    const row = await findManualSession(executor, sessionId, now());
    if (row === undefined || !isWaiting(row.session)) throw notFound(SESSION_NOT_FOUND);
    return row;
  }

  /** The session a reviewer acts on: 404 unknown or sandbox-decided, 409 when it no longer (or not yet) waits. */
  async function sessionToAct(executor: DatabaseExecutor, sessionId: string, at: Date): Promise<ReviewSessionRow> {
    const row = await findManualSession(executor, sessionId, at);
    if (row === undefined) throw notFound(SESSION_NOT_FOUND);
    if (!isWaiting(row.session)) {
      throw conflict(`This verification session is not waiting for review: it is ${row.session.status}`);
    }
    return row;
  }

  /** Claims the session for the reviewer, or 409 naming when another reviewer's claim ends. */
  async function claimFor(tx: DatabaseExecutor, reviewer: Reviewer, sessionId: string, at: Date) {
    const claim = await claimSession(tx, {
      sessionId,
      reviewerId: reviewer.userId,
      claimedAt: at,
      expiresAt: new Date(at.getTime() + CLAIM_TTL_MS),
    });
    if (claim !== undefined) return claim;
    const held = await findClaim(tx, sessionId);
    throw conflict(`Claimed by another reviewer until ${(held?.expiresAt ?? at).toISOString()}`);
  }

  async function isReviewer(userId: string): Promise<boolean> {
    if (options.platformOrganizationId === undefined) return false;
    const access = await membershipIn(db, userId, options.platformOrganizationId);
    return access !== null && allows(access.role, 'reviews:decide');
  }

  function openDetails(session: VerificationSession): SubmittedDetails | null {
    if (session.submittedDetails === null) return null;
    try {
      const opened = vault.open(submittedDetailsKey(session), session.submittedDetails);
      return JSON.parse(opened.bytes.toString('utf8')) as SubmittedDetails;
    } catch (error) {
      throw internalError('The submitted details could not be read', { cause: error });
    }
  }

  function documentView(document: VerificationDocument, reviewer: Reviewer, at: Date): ReviewDocument {
    const link = signDocumentLink(
      linkKey,
      { sessionId: document.sessionId, documentId: document.id, reviewerId: reviewer.userId },
      at,
    );
    return {
      id: document.id,
      kind: document.kind,
      contentType: document.contentType,
      sizeBytes: document.sizeBytes,
      uploadedAt: document.createdAt.toISOString(),
      url: `${publicUrl}${documentContentPath(document.sessionId, document.id)}?${link.query}`,
      urlExpiresAt: link.expiresAt.toISOString(),
    };
  }

  return {
    async listQueue({ limit, cursor }) {
      platformOrganization();
      const rows = await listQueueRows(db, {
        after: cursor === undefined ? undefined : decodeCursor(cursor),
        limit: limit + 1,
        now: now(),
      });
      const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.session.id }));
      return {
        reviews: page.map((row) => ({
          sessionId: row.session.id,
          type: row.session.type,
          environment: row.session.environment,
          appName: row.session.appName,
          submittedAt: row.queuedAt.toISOString(),
          claimedBy: row.claim?.reviewerId ?? null,
          claimExpiresAt: row.claim?.expiresAt.toISOString() ?? null,
        })),
        nextCursor,
      };
    },

    async getReview(reviewer, sessionId) {
      const organizationId = platformOrganization();
      const at = now();
      const { session, claim } = await waitingSession(db, sessionId);
      const details = openDetails(session);
      const [documents, transitions] = await Promise.all([
        listCurrentDocuments(db, session.id),
        listTransitions(db, session.id),
      ]);
      // Reading what the person submitted is personal data seen: the audit log says who saw it.
      await recordAuditEvent(db, auditOf(reviewer), {
        organizationId,
        action: 'review.details_viewed',
        targetType: 'verification_session',
        targetId: session.id,
        details: { sessionId: session.id, type: session.type, environment: session.environment },
      });
      return {
        sessionId: session.id,
        type: session.type,
        environment: session.environment,
        appName: session.appName,
        status: session.status,
        submittedAt: (session.submittedAt ?? session.createdAt).toISOString(),
        claimedBy: claim?.reviewerId ?? null,
        claimExpiresAt: claim?.expiresAt.toISOString() ?? null,
        requiredDocuments: session.requiredDocuments,
        details,
        documents: documents.map((document) => documentView(document, reviewer, at)),
        history: transitions.map((transition) => ({
          from: transition.fromStatus,
          to: transition.toStatus,
          reason: transition.reason,
          at: transition.createdAt.toISOString(),
        })),
      };
    },

    async claimReview(reviewer, sessionId) {
      const organizationId = platformOrganization();
      const at = now();
      return db.transaction(async (tx) => {
        await sessionToAct(tx, sessionId, at);
        const claim = await claimFor(tx, reviewer, sessionId, at);
        await recordAuditEvent(tx, auditOf(reviewer), {
          organizationId,
          action: 'review.claimed',
          targetType: 'verification_session',
          targetId: sessionId,
          details: { sessionId, expiresAt: claim.expiresAt.toISOString() },
        });
        return {
          sessionId,
          claimedBy: claim.reviewerId,
          claimedAt: claim.claimedAt.toISOString(),
          expiresAt: claim.expiresAt.toISOString(),
        };
      });
    },

    async decideReview(reviewer, sessionId, input) {
      const organizationId = platformOrganization();
      const at = now();
      const reason = input.reason?.trim() || undefined;
      const result = await unitOfWork(db, async (work) => {
        const tx = await work.transaction();
        const { session } = await sessionToAct(tx, sessionId, at);
        checkDecision(session.type, input.decision, reason, input.documents);
        // Deciding without a claim claims first, so a live claim of another reviewer refuses it (409), and of two
        // reviewers deciding at once the second waits on the first's claim row.
        await claimFor(tx, reviewer, sessionId, at);
        const moved = await moveSession(
          work,
          {
            sessionId,
            to: input.decision,
            actor: `reviewer:${reviewer.userId}`,
            reason: reason ?? null,
            resubmitDocuments: input.decision === 'requires_input' ? input.documents : undefined,
            now: at,
          },
          { platformOrganizationId: organizationId },
        );
        // Decided: the session leaves the queue (its claim goes). If it comes back (requires_input, then a new
        // submission), it is a new review with no claim. Both are written with the move's consequences, in the
        // unit's last statement, which takes the wallet's lock (docs/decisions.md#a-unit-of-work).
        addClaimDeletion(work, sessionId);
        addAuditEvent(work, auditOf(reviewer), {
          organizationId,
          action: 'review.decided',
          targetType: 'verification_session',
          targetId: sessionId,
          details: {
            sessionId,
            decision: input.decision,
            type: session.type,
            environment: session.environment,
            ...(moved.session.resubmitDocuments === null ? {} : { documents: moved.session.resubmitDocuments }),
          },
        });
        return moved;
      });
      if (result.decision !== undefined) options.onDecided?.(result.decision);
      return {
        sessionId,
        status: input.decision,
        previousStatus: result.previousStatus,
        reason: result.session.lastError,
        resubmitDocuments: result.session.resubmitDocuments,
        decidedAt: at.toISOString(),
      };
    },

    async openDocument(link, request) {
      const organizationId = platformOrganization();
      const at = now();
      const claims = {
        sessionId: link.sessionId,
        documentId: link.documentId,
        reviewerId: link.reviewer,
        expires: link.expires,
      };
      if (!isValidDocumentLink(linkKey, claims, link.signature, at)) throw forbidden(INVALID_DOCUMENT_LINK);
      // The link outlives nothing: a reviewer who lost the role since it was issued cannot use it.
      if (!(await isReviewer(link.reviewer))) throw forbidden(INVALID_DOCUMENT_LINK);

      const { session } = await waitingSession(db, link.sessionId);
      const document = await findCurrentDocument(db, session.id, link.documentId);
      if (document === undefined) throw notFound(DOCUMENT_NOT_FOUND);
      let stored: Awaited<ReturnType<DocumentVault['read']>>;
      try {
        stored = await vault.read(document.storageKey);
      } catch (error) {
        throw internalError('The document could not be read', { cause: error });
      }
      if (stored === null) throw internalError('The document is missing from storage');

      // Recorded before a byte is sent: a view the log cannot record is not served.
      await recordAuditEvent(
        db,
        { actorUserId: link.reviewer, requestId: request.requestId, ip: request.ip },
        {
          organizationId,
          action: 'review.document_viewed',
          targetType: 'verification_document',
          targetId: document.id,
          details: { sessionId: session.id, documentId: document.id, kind: document.kind },
        },
      );
      const contentType = (documentContentTypes as readonly string[]).includes(stored.contentType)
        ? stored.contentType
        : 'application/octet-stream';
      return { bytes: stored.bytes, contentType, kind: document.kind };
    },

    isReviewer,
  };
}

/**
 * The decision's own rules, checked before anything is written (400 listing every problem): a reason unless
 * verified; `documents` only with requires_input, each a kind of the session's type.
 */
function checkDecision(
  type: VerificationType,
  decision: ReviewDecision,
  reason: string | undefined,
  documents: readonly DocumentKind[] | undefined,
): void {
  const problems: ValidationDetail[] = [];
  if (decision !== 'verified' && reason === undefined) {
    problems.push({ path: '/reason', message: `is required when the decision is ${decision}` });
  }
  if (documents !== undefined && documents.length > 0) {
    if (decision !== 'requires_input') {
      problems.push({ path: '/documents', message: 'is taken only when the decision is requires_input' });
    } else {
      const foreign = documents.filter((kind) => !documentKindsOf(type).includes(kind));
      if (foreign.length > 0) {
        problems.push({
          path: '/documents',
          message: `${foreign.join(', ')} is not a document of a ${type} session (${documentKindsOf(type).join(', ')})`,
        });
      }
    }
  }
  if (problems.length > 0) throw invalidFields(problems);
}
