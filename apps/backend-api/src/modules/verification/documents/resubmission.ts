import type { DatabaseExecutor, DocumentKind, VerificationDocument, VerificationSession } from '@platform/db';
import { conflict } from '@platform/errors';
import { lastMovedTo } from '../index.js';

// A `requires_input` decision that names the documents to send again (docs/decisions.md#resubmission): only those
// kinds are taken until the next submission, the first of a kind sent for the decision replaces the earlier ones
// (director IDs included), and the submission needs each of them sent again.

/** What a decision asks to be sent again, and from when a document counts as sent for it. */
export interface Resubmission {
  kinds: readonly DocumentKind[];
  /**
   * When the session was last submitted (its last move to processing). Nothing is captured between that move and
   * the decision, so a document created after it was sent for the decision. Both times come from this service's
   * clock under the session's lock, never from the reviewer's service.
   */
  since: Date;
}

/** The decision's request while the session is requires_input with documents named; undefined otherwise. */
export async function resubmissionOf(
  db: DatabaseExecutor,
  session: VerificationSession,
): Promise<Resubmission | undefined> {
  const kinds = session.resubmitDocuments;
  if (session.status !== 'requires_input' || kinds === null || kinds.length === 0) return undefined;
  const since = (await lastMovedTo(db, session.id, 'processing')) ?? session.submittedAt ?? session.createdAt;
  return { kinds, since };
}

/** 409 for a kind the session's decision did not ask for, naming the kinds it did (nothing is stored). */
export function assertAskedFor(session: VerificationSession, kind: DocumentKind): void {
  const kinds = session.status === 'requires_input' ? session.resubmitDocuments : null;
  if (kinds === null || kinds.length === 0 || kinds.includes(kind)) return;
  throw conflict(
    `This verification session asks only for ${kinds.join(', ')} to be sent again; ${kind} is kept as sent ` +
      'before and is not taken until the session is submitted',
  );
}

export function isSentFor(resubmission: Resubmission, document: Pick<VerificationDocument, 'createdAt'>): boolean {
  return document.createdAt.getTime() > resubmission.since.getTime();
}

/** The asked-for kinds that have no document sent for the decision among `documents` (the current ones). */
export function kindsStillToResend(
  resubmission: Resubmission,
  documents: readonly Pick<VerificationDocument, 'kind' | 'createdAt'>[],
): DocumentKind[] {
  return resubmission.kinds.filter(
    (kind) => !documents.some((document) => document.kind === kind && isSentFor(resubmission, document)),
  );
}
