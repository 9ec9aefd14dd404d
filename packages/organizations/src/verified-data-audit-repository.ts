import type { DatabaseExecutor } from '@platform/db';
import { auditEvents } from '@platform/db/schema/audit-events';

// The audit record of a read of a session's verified data (docs/decisions.md#verified-data). main-api's audit module
// owns audit_events; this is the one record backend-api writes there, published here so both services write it alike.

export const VERIFIED_DATA_VIEWED = 'verification.verified_data_viewed';

export interface VerifiedDataRead {
  organizationId: string;
  sessionId: string;
  /** The member who read it (main-api), or null for an API key. */
  actorUserId: string | null;
  /** The API key that read it (backend-api), or null for a member. */
  apiKeyId: string | null;
  requestId: string | null;
  ip: string | null;
}

/**
 * Records the read, in the transaction that reads the data: when the record cannot be written, the read fails and
 * nothing is answered.
 */
export async function recordVerifiedDataViewed(tx: DatabaseExecutor, read: VerifiedDataRead): Promise<void> {
  await tx.insert(auditEvents).values({
    organizationId: read.organizationId,
    actorUserId: read.actorUserId,
    action: VERIFIED_DATA_VIEWED,
    targetType: 'verification_session',
    targetId: read.sessionId,
    requestId: read.requestId,
    ip: read.ip,
    details: read.apiKeyId === null ? {} : { apiKeyId: read.apiKeyId },
  });
}
