import type { DatabaseExecutor } from '@platform/db';
import { auditEvents } from '@platform/db/schema/audit-events';

// An audit record written by backend-api, where an API key acts, not a user (docs/decisions.md#audit-log): the
// actor is null and the key's id goes in the details. main-api's audit module owns the table and reads it.

export async function recordServiceAuditEvent(
  db: DatabaseExecutor,
  event: {
    organizationId: string;
    action: string;
    targetType: string;
    targetId: string;
    requestId: string;
    ip: string;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditEvents).values({ ...event, actorUserId: null });
}
