import type { VerificationDocument, VerificationSession } from '@platform/db';
import { internalError } from '@platform/errors';
import { submittedDetailsKey } from '@platform/verification-lifecycle';
import { recordAuditEvent } from '../audit/index.js';
import { documentContentPath, signDocumentLink } from './document-links.js';
import { listCurrentDocuments, listTransitions } from './repository.js';
import {
  auditOf,
  platformOrganization,
  type Reviewer,
  type ReviewServiceOptions,
  waitingSession,
} from './review-context.js';
import type { ReviewDetail, ReviewDocument, SubmittedDetails } from './review-views.js';

// Reading a review: what the person submitted (opened from its sealed form), the current documents with signed
// links, and the session's history, recorded in the audit log as personal data seen.

export async function getReview(
  options: ReviewServiceOptions,
  reviewer: Reviewer,
  sessionId: string,
): Promise<ReviewDetail> {
  const { db } = options;
  const organizationId = platformOrganization(options);
  const at = options.now();
  const { session, claim } = await waitingSession(options, db, sessionId);
  const details = openDetails(options, session);
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
    documents: documents.map((document) => documentView(options, document, reviewer, at)),
    history: transitions.map((transition) => ({
      from: transition.fromStatus,
      to: transition.toStatus,
      reason: transition.reason,
      at: transition.createdAt.toISOString(),
    })),
  };
}

function openDetails(options: ReviewServiceOptions, session: VerificationSession): SubmittedDetails | null {
  if (session.submittedDetails === null) return null;
  try {
    const opened = options.vault.open(submittedDetailsKey(session), session.submittedDetails);
    return JSON.parse(opened.bytes.toString('utf8')) as SubmittedDetails;
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
