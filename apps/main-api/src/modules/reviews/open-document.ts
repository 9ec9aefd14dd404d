import { documentContentTypes } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { forbidden, internalError, notFound } from '@platform/errors';
import { recordAuditEvent } from '../audit/index.js';
import { isValidDocumentLink } from './document-links.js';
import { findCurrentDocument } from './repository.js';
import { isReviewer, platformOrganization, type ReviewServiceOptions, reviewableSession } from './review-context.js';
import type { DocumentLinkRequest, OpenedDocument } from './review-views.js';

// A document through its signed link: checked (the link, the reviewer's role, the session one reviewers may read:
// waiting, or decided after a review, docs/decisions.md#decided-reviews), read from the vault while it is stored (not
// replaced, not erased), and recorded in the audit log before a byte is served.

const DOCUMENT_NOT_FOUND = 'Document not found';
/** One answer for every link that does not work: changed, expired, or its reviewer no longer one. */
export const INVALID_DOCUMENT_LINK = 'This document link is not valid or has expired';

export async function openDocument(
  options: ReviewServiceOptions,
  link: DocumentLinkRequest,
  request: { requestId: string | null; ip: string | null },
): Promise<OpenedDocument> {
  const { db, vault } = options;
  const organizationId = platformOrganization(options);
  const at = options.now();
  const claims = {
    sessionId: link.sessionId,
    documentId: link.documentId,
    reviewerId: link.reviewer,
    expires: link.expires,
  };
  if (!isValidDocumentLink(options.linkKey, claims, link.signature, at)) throw forbidden(INVALID_DOCUMENT_LINK);
  // The link outlives nothing: a reviewer who lost the role since it was issued cannot use it.
  if (!(await isReviewer(options, link.reviewer))) throw forbidden(INVALID_DOCUMENT_LINK);

  const { session } = await reviewableSession(options, db, link.sessionId);
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
}
