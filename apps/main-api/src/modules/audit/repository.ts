import type { DatabaseExecutor } from '@platform/db';
import { auditEvents, type NewAuditEvent } from '@platform/db/schema';

export async function insertAuditEvent(executor: DatabaseExecutor, event: NewAuditEvent): Promise<void> {
  await executor.insert(auditEvents).values(event);
}
