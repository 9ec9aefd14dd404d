import {
  type ApiKeyEnvironment,
  type Database,
  unitOfWork,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { notFound } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import {
  cancelSession,
  type LifecycleOptions,
  listOrganizationSessionRows,
  listTransitions,
  readSession,
  SESSION_NOT_FOUND,
} from '@platform/verification-lifecycle';
import { listSessionCallbacks } from '@platform/webhooks';
import { readListPeriod } from '../../shared/list-period.js';
import { type AuditContext, addAuditEvent } from '../audit/index.js';
import type { OrganizationSessionDetailView, OrganizationSessionView } from './schemas.js';
import { sessionDetailView, sessionView } from './views.js';

// An organization's verification sessions for its members (docs/decisions.md#organization-session-list): the list,
// one session with its timeline, and the cancel. The statements are @platform/verification-lifecycle's and
// @platform/webhooks' (the tables are theirs to publish: docs/decisions.md#one-owner-per-table); the cancel is the
// lifecycle's, the one backend-api's API keys run (docs/decisions.md#cancel-from-the-main-api).

export interface ListOrganizationSessionsInput {
  status?: VerificationStatus | undefined;
  type?: VerificationType | undefined;
  environment?: ApiKeyEnvironment | undefined;
  from?: string | undefined;
  to?: string | undefined;
  externalEndUserId?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A page of the organization's sessions, newest first; 400 for a period or cursor this API does not take. */
export async function listOrganizationSessions(
  db: Database,
  organizationId: string,
  input: ListOrganizationSessionsInput,
): Promise<{ sessions: OrganizationSessionView[]; nextCursor: string | null }> {
  const { from, to } = readListPeriod({ from: input.from, to: input.to });
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await listOrganizationSessionRows(db, organizationId, {
    filter: {
      status: input.status,
      type: input.type,
      environment: input.environment,
      createdFrom: from,
      createdBefore: to,
      externalEndUserId: input.externalEndUserId,
    },
    after,
    limit: input.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, input.limit, (row) => ({
    createdAt: row.position,
    id: row.fields.sessionId,
  }));
  // The list's rows are the view already (read by position: docs/benchmarks.md); list-sessions.test.ts holds each to
  // the view of the same session read alone.
  return { sessions: page.map((row): OrganizationSessionView => row.fields), nextCursor };
}

/**
 * The organization's session with its status changes, its callbacks and their attempts, and its decision; 404 for
 * an unknown id and another organization's alike.
 */
export async function getOrganizationSession(
  db: Database,
  organizationId: string,
  sessionId: string,
): Promise<OrganizationSessionDetailView> {
  const session = await readSession(db, sessionId, { organizationId });
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  const [transitions, callbacks] = await Promise.all([
    listTransitions(db, sessionId),
    listSessionCallbacks(db, { organizationId, sessionId }),
  ]);
  return sessionDetailView(session, transitions, callbacks);
}

export interface CancelOrganizationSessionInput {
  organizationId: string;
  sessionId: string;
  audit: AuditContext & { actorUserId: string };
  now: Date;
}

/**
 * Cancels the organization's session while it is pending or requires_input, as backend-api's cancel does (the
 * lifecycle's: the hold released once, the canceled callback, the transition by `member:<userId>`), with the audit
 * event `verification_session.canceled`, all in one unit of work. 404 for an unknown id or another organization's,
 * 409 from any other status, a second cancel included.
 */
export async function cancelOrganizationSession(
  db: Database,
  input: CancelOrganizationSessionInput,
  lifecycle: LifecycleOptions,
): Promise<OrganizationSessionView> {
  const { organizationId, sessionId, audit, now } = input;
  const canceled = await unitOfWork(db, async (work) => {
    const session = await cancelSession(
      work,
      { sessionId, actor: `member:${audit.actorUserId}`, now, owner: { organizationId } },
      lifecycle,
    );
    addAuditEvent(work, audit, {
      organizationId,
      action: 'verification_session.canceled',
      targetType: 'verification_session',
      targetId: sessionId,
      details: { sessionId, type: session.type, environment: session.environment, price: session.price },
    });
    return session;
  });
  return sessionView(canceled);
}
