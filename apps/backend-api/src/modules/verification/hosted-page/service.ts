import { type Database, isUuid, type VerificationSession, type VerificationStatus } from '@platform/db';
import { isAppError } from '@platform/errors';
import { findSessionById, type LifecycleOptions, moveSession } from '../index.js';
import { type NoticeCode, type SandboxAction, sandboxActionsFor } from './page.js';

// What the hosted page does with a session: find it by the id in its URL, and move it with the sandbox buttons
// through the same lifecycle as everything else (actor `hosted_page`).

const moves: Record<SandboxAction, { to: VerificationStatus; notice: NoticeCode }> = {
  submit: { to: 'processing', notice: 'submitted' },
  approve: { to: 'verified', notice: 'approved' },
  reject: { to: 'rejected', notice: 'rejected' },
  request_resubmission: { to: 'requires_input', notice: 'resubmission_requested' },
};

/** The session the page's URL names; anything that is not a session id is no session. */
export async function findPageSession(db: Database, id: string): Promise<VerificationSession | undefined> {
  return isUuid(id) ? findSessionById(db, id) : undefined;
}

/**
 * Applies a sandbox button to the session as the page showed it, and says what the page should say next. A button
 * the session's status no longer offers, or a move another one beat, changes nothing (`moved_on`).
 */
export async function applySandboxAction(
  db: Database,
  session: VerificationSession,
  { action, reason, now }: { action: SandboxAction; reason: string | undefined; now: Date },
  lifecycle: LifecycleOptions,
): Promise<NoticeCode> {
  if (!sandboxActionsFor(session.status).includes(action)) return 'moved_on';
  try {
    await db.transaction((tx) =>
      moveSession(tx, { sessionId: session.id, to: moves[action].to, actor: 'hosted_page', reason, now }, lifecycle),
    );
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') return 'moved_on';
    throw error;
  }
  return moves[action].notice;
}
