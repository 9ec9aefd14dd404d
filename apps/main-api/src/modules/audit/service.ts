import type { DatabaseExecutor, UnitOfWork } from '@platform/db';
import { invalidFields } from '@platform/errors';
import { readStorableDateTime } from '@platform/http';
import { decodeCursor, pageOf } from '@platform/pagination';
import { addAuditEventInsert, insertAuditEvent, listAuditEventRows } from './repository.js';
import type { AuditEventView } from './schemas.js';

/**
 * Who is making a change and from where: the request's user, id and client IP, or the platform itself for a
 * scheduled job (docs/decisions.md#audit-log). Built from a request by `auditContextOf` (src/shared/audit-context.ts).
 */
export interface AuditContext {
  /** Null for the platform's own jobs. */
  actorUserId: string | null;
  requestId: string | null;
  ip: string | null;
}

/** The context of a change the platform makes on its own (a renewal, an expiry). */
export const PLATFORM_JOB: AuditContext = { actorUserId: null, requestId: null, ip: null };

/** One change to record: `<object>.<verb>` on a target of the organization. */
export interface AuditedChange {
  organizationId: string;
  /** For example `member.role_changed`, `api_key.revoked`, `subscription.upgraded`. */
  action: string;
  targetType: string;
  targetId: string;
  /** What changed (roles before and after, an amount, an environment); never a secret or personal document data. */
  details?: Record<string, unknown>;
}

/**
 * Records the change in the audit log. Call it with the transaction that makes the change, so the record and the
 * change commit or roll back together.
 */
export async function recordAuditEvent(
  executor: DatabaseExecutor,
  context: AuditContext,
  change: AuditedChange,
): Promise<void> {
  await insertAuditEvent(executor, { ...context, ...change, details: change.details ?? {} });
}

/**
 * recordAuditEvent in a unit of work (docs/decisions.md#a-unit-of-work): the insert is added to the unit of the change
 * and written with it at its commit, at no cost of a statement of its own.
 */
export function addAuditEvent(work: UnitOfWork, context: AuditContext, change: AuditedChange): void {
  addAuditEventInsert(work, { ...context, ...change, details: change.details ?? {} });
}

export interface AuditEventFilter {
  action: string | undefined;
  /** Date-times with a time zone, checked by the route's schema (docs/decisions.md#dates-are-storable). */
  from: string | undefined;
  to: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/**
 * A page of the organization's audit log, newest first, with the cursor of the next page (null on the last one):
 * the events of `action` only, at or after `from` and before `to` when given. 400 when `from` is after `to`, or for
 * a cursor this API did not return.
 */
export async function listAuditEvents(
  db: DatabaseExecutor,
  organizationId: string,
  { action, from, to, limit, cursor }: AuditEventFilter,
): Promise<{ auditEvents: AuditEventView[]; nextCursor: string | null }> {
  // Read as the schema's format read them, not by `new Date`, which reads some forms another way.
  const fromTime = from === undefined ? undefined : readStorableDateTime(from);
  const toTime = to === undefined ? undefined : readStorableDateTime(to);
  if (fromTime !== undefined && toTime !== undefined && fromTime.getTime() > toTime.getTime()) {
    throw invalidFields([{ path: 'querystring/from', message: 'must not be after to' }]);
  }
  const rows = await listAuditEventRows(db, {
    organizationId,
    action,
    from: fromTime,
    to: toTime,
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.event.id }));
  return {
    auditEvents: page.map(({ event }) => ({
      id: event.id,
      action: event.action,
      actorUserId: event.actorUserId,
      targetType: event.targetType,
      targetId: event.targetId,
      requestId: event.requestId,
      ip: event.ip,
      details: event.details,
      createdAt: event.createdAt.toISOString(),
    })),
    nextCursor,
  };
}
