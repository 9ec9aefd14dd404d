import type { DatabaseExecutor } from '@platform/db';
import { type AuditEvent, auditEvents, type NewAuditEvent } from '@platform/db/schema';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';

export async function insertAuditEvent(executor: DatabaseExecutor, event: NewAuditEvent): Promise<void> {
  await executor.insert(auditEvents).values(event);
}

/** insertAuditEvent as a statement to send inside another one (a rider); it returns the event's id. */
export function insertAuditEventStatement(executor: DatabaseExecutor, event: NewAuditEvent): SQL {
  return executor.insert(auditEvents).values(event).returning({ id: auditEvents.id }).getSQL();
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
