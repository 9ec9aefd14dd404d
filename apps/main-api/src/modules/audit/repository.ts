import type { DatabaseExecutor, UnitOfWork } from '@platform/db';
import { type AuditEvent, auditEvents, type NewAuditEvent } from '@platform/db/schema/audit-events';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';

export async function insertAuditEvent(executor: DatabaseExecutor, event: NewAuditEvent): Promise<void> {
  await executor.insert(auditEvents).values(event);
}

/** Adds insertAuditEvent to the unit of work, sent at its commit. */
export function addAuditEventInsert(work: UnitOfWork, event: Omit<NewAuditEvent, 'id' | 'createdAt'>): void {
  work.write(sql`insert into ${auditEvents}
      (organization_id, actor_user_id, action, target_type, target_id, request_id, ip, details)
    values (${event.organizationId}::uuid, ${event.actorUserId ?? null}::text, ${event.action}::text,
      ${event.targetType}::text, ${event.targetId}::text, ${event.requestId ?? null}::text, ${event.ip ?? null}::text,
      ${JSON.stringify(event.details ?? {})}::jsonb)
    returning id`);
}

export interface AuditEventQuery {
  organizationId: string;
  action: string | undefined;
  /** At or after this time. */
  from: Date | undefined;
  /** Before this time. */
  to: Date | undefined;
  /** Only the events after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/**
 * Up to `limit` of the organization's events newest first, each with its position for the next page's cursor
 * (served by audit_events_organization_id_created_at_id_idx).
 */
export function listAuditEventRows(
  db: DatabaseExecutor,
  { organizationId, action, from, to, after, limit }: AuditEventQuery,
): Promise<Array<{ event: AuditEvent; position: string }>> {
  const conditions: Array<SQL | undefined> = [eq(auditEvents.organizationId, organizationId)];
  if (action !== undefined) conditions.push(eq(auditEvents.action, action));
  if (from !== undefined) conditions.push(gte(auditEvents.createdAt, from));
  if (to !== undefined) conditions.push(lt(auditEvents.createdAt, to));
  if (after !== undefined) conditions.push(afterPosition(auditEvents, after));
  return db
    .select({ event: auditEvents, position: cursorTimeOf(auditEvents.createdAt) })
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit);
}
