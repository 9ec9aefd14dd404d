import type { DatabaseExecutor } from '@platform/db';
import { insertAuditEvent } from './repository.js';

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
