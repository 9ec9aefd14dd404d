import type { VerificationDocument, VerificationSession } from '@platform/db';
import { internalError } from '@platform/errors';
import { checkEvidenceKey, openSubmittedDetails, type SubmittedDetails } from '@platform/verification-lifecycle';
import { recordAuditEvent } from '../audit/index.js';
import { documentContentPath, signDocumentLink } from './document-links.js';
import { findOrganizationName, listCurrentDocuments, listReviewChecks } from './repository.js';
import { actorsNamer } from './review-actors.js';
import {
  auditOf,
  platformOrganization,
  type Reviewer,
  type ReviewServiceOptions,
  reviewableSession,
} from './review-context.js';
import { decisionFields, historyOf } from './review-history.js';
import type { ReviewDetail, ReviewDocument } from './review-views.js';

// Reading a review, while the session waits or after its decision (docs/decisions.md#decided-reviews): what the
// person submitted (opened from its sealed form), the documents still stored with signed links and the checks'
// results beside them, the customer organization, and the session's history with who decided, when and why; recorded in the audit log as personal
// data seen.

export async function getReview(
  options: ReviewServiceOptions,
  reviewer: Reviewer,
  sessionId: string,
): Promise<ReviewDetail> {
  const { db } = options;
  const organizationId = platformOrganization(options);
  const at = options.now();
  const { session, claim, transitions, decision } = await reviewableSession(options, db, sessionId);
  const details = openDetails(options, session);
  const [documents, checks, organizationName, actorOf] = await Promise.all([
    listCurrentDocuments(db, session.id),
    listReviewChecks(db, session.id),
    findOrganizationName(db, session.organizationId),
    actorsNamer(
      db,
      transitions.map((transition) => transition.actor),
    ),
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
    // The session's organization always exists (the foreign key); its name is kept when it is retired.
    organization: { id: session.organizationId, name: organizationName ?? '' },
    appName: session.appName,
    status: session.status,
    submittedAt: (session.submittedAt ?? session.createdAt).toISOString(),
    claimedBy: claim?.reviewerId ?? null,
    claimExpiresAt: claim?.expiresAt.toISOString() ?? null,
    ...decisionFields(session.status, decision, actorOf),
    requiredDocuments: session.requiredDocuments,
    personalDataErasedAt: session.personalDataErasedAt?.toISOString() ?? null,
    details,
    documents: documents.map((document) => documentView(options, document, reviewer, at)),
    checks: checks.map((check) => ({
      id: check.id,
      kind: check.kind,
      source: check.source,
      outcome: check.outcome,
      code: check.code,
      summary: check.summary,
      details: withoutConsequence(check.details),
      evidence: openEvidence(options, session, check),
      submittedAt: check.submittedAt.toISOString(),
      createdAt: check.createdAt.toISOString(),
    })),
    history: historyOf(transitions, actorOf),
  };
}

/** What a check saw of the person (the registry's names, screening hits), opened for the reviewer; null once erased. */
function openEvidence(
  options: ReviewServiceOptions,
  session: VerificationSession,
  check: { id: string; evidence: Uint8Array | null },
): Record<string, unknown> | null {
  if (check.evidence === null) return null;
  try {
    const opened = options.vault.open(checkEvidenceKey(session, check.id), check.evidence);
    return JSON.parse(opened.bytes.toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    throw internalError("A check's evidence could not be read", { cause: error });
  }
}

/** The consequence a failed check named is the policy's input, not the reviewer's: the outcome and summary say it. */
function withoutConsequence(details: Record<string, unknown>): Record<string, unknown> {
  const { consequence: _consequence, ...rest } = details;
  return rest;
}

function openDetails(options: ReviewServiceOptions, session: VerificationSession): SubmittedDetails | null {
  try {
    return openSubmittedDetails(options.vault, session) ?? null;
  } catch (error) {
    throw internalError('The submitted details could not be read', { cause: error });
  }
}

function documentView(
  options: ReviewServiceOptions,
  document: VerificationDocument,
  reviewer: Reviewer,
  at: Date,
): ReviewDocument {
  const link = signDocumentLink(
    options.linkKey,
    { sessionId: document.sessionId, documentId: document.id, reviewerId: reviewer.userId },
    at,
  );
  return {
    id: document.id,
    kind: document.kind,
    contentType: document.contentType,
    sizeBytes: document.sizeBytes,
    uploadedAt: document.createdAt.toISOString(),
    url: `${options.publicUrl}${documentContentPath(document.sessionId, document.id)}?${link.query}`,
    urlExpiresAt: link.expiresAt.toISOString(),
  };
}
