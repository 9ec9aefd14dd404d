import type { KeyObject } from 'node:crypto';
import type { Database, DatabaseExecutor, VerificationSession, VerificationSessionTransition } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { conflict, forbidden, notFound } from '@platform/errors';
import { SESSION_NOT_FOUND, type SessionDecision } from '@platform/verification-lifecycle';
import type { AuditContext } from '../audit/index.js';
import { allows, membershipIn, refusalMessage } from '../organizations/index.js';
import { findManualSession, listTransitions, type ReviewSessionRow } from './repository.js';
import { type LastDecision, lastDecisionOf } from './review-history.js';

// What every use case of the review service shares: its dependencies, the reviewer who acts, the platform
// organization they act in, the session they act on while it waits for review, and the session they read, waiting
// or decided.

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

/** The platform organization, or 403 for everything when none is set. */
export function platformOrganization(options: ReviewServiceOptions): string {
  if (options.platformOrganizationId === undefined) throw forbidden(refusalMessage('reviews:decide'));
  return options.platformOrganizationId;
}

/** Whether the user may review: the reviewer role in the platform organization, asked of the role policy. */
export async function isReviewer(options: ReviewServiceOptions, userId: string): Promise<boolean> {
  if (options.platformOrganizationId === undefined) return false;
  const access = await membershipIn(options.db, userId, options.platformOrganizationId);
  return access !== null && allows(access.role, 'reviews:decide');
}

export function auditOf(actor: Reviewer): AuditContext {
  return { actorUserId: actor.userId, requestId: actor.requestId, ip: actor.ip };
}

function isWaiting(session: VerificationSession): boolean {
  return session.status === 'processing';
}

/** A session reviewers may read, with its history and its last decision (undefined while it waits for the first). */
export interface ReviewableSession extends ReviewSessionRow {
  transitions: VerificationSessionTransition[];
  decision: LastDecision | undefined;
}

/**
 * The session while it waits for a reviewer or after a decision of one (docs/decisions.md#decided-reviews): a session
 * given to reviewers (decision_source manual) stays readable to them with its history. 404 for anything else:
 * unknown, decided by the sandbox or Smile ID alone, or never submitted.
 */
export async function reviewableSession(
  options: ReviewServiceOptions,
  executor: DatabaseExecutor,
  sessionId: string,
): Promise<ReviewableSession> {
  const row = await findManualSession(executor, sessionId, options.now());
  if (row === undefined) throw notFound(SESSION_NOT_FOUND);
  const transitions = await listTransitions(executor, row.session.id);
  const decision = lastDecisionOf(transitions);
  if (!isWaiting(row.session) && decision === undefined) throw notFound(SESSION_NOT_FOUND);
  return { ...row, transitions, decision };
}

/** The session a reviewer acts on: 404 unknown or sandbox-decided, 409 when it no longer (or not yet) waits. */
export async function sessionToAct(executor: DatabaseExecutor, sessionId: string, at: Date): Promise<ReviewSessionRow> {
  const row = await findManualSession(executor, sessionId, at);
  if (row === undefined) throw notFound(SESSION_NOT_FOUND);
  if (!isWaiting(row.session)) {
    throw conflict(`This verification session is not waiting for review: it is ${row.session.status}`);
  }
  return row;
}
