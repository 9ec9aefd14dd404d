import type { ApiKeyOwner, Database, DatabaseExecutor, VerificationCheck, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { recordServiceAuditEvent } from '@platform/organizations';
import { type ApiKeyPrincipal, requireKeyPermission } from '../../plugins/api-key-authentication.js';
import { openVerifiedOutputs, type VerifiedOutputs } from './checks/index.js';
import { listSubmissionChecks } from './checks/repository.js';
import { readOwnerSession } from './service.js';
import type { SessionCheckView } from './verified-data-schemas.js';

// One session read by id, with its checks and, asked for and allowed, its verified data
// (docs/decisions.md#verified-data).

export interface SessionDetail {
  session: VerificationSession;
  checks: SessionCheckView[];
  /** Only when expanded: null before a verified decision and after erasure. */
  verifiedOutputs?: VerifiedOutputs | null;
}

export interface SessionDetailRead {
  key: Pick<ApiKeyPrincipal, 'id' | 'permissions'>;
  expandVerifiedOutputs: boolean;
  requestId: string;
  ip: string;
}

/**
 * The owner's session (404 for another's), its latest submission's checks, and with the expansion its verified data.
 * A key without the permission is refused before anything is read; the read of verified data and its audit record
 * share one transaction, so no data is answered whose read was not recorded.
 */
export async function readSessionDetail(
  db: Database,
  vault: DocumentVault,
  owner: ApiKeyOwner,
  sessionId: string,
  read: SessionDetailRead,
): Promise<SessionDetail> {
  if (!read.expandVerifiedOutputs) {
    const session = await readOwnerSession(db, owner, sessionId);
    return { session, checks: await latestChecks(db, session) };
  }
  requireKeyPermission(read.key, 'verified_data:read', 'expand=verified_outputs');
  return db.transaction(async (tx) => {
    const session = await readOwnerSession(tx, owner, sessionId);
    const checks = await latestChecks(tx, session);
    // In the read's transaction: a read the audit log cannot record is not answered.
    await recordServiceAuditEvent(tx, {
      organizationId: owner.organizationId,
      action: 'verification.verified_data_viewed',
      targetType: 'verification_session',
      targetId: session.id,
      requestId: read.requestId,
      ip: read.ip,
      details: { apiKeyId: read.key.id },
    });
    const verifiedOutputs =
      session.personalDataErasedAt === null ? (openVerifiedOutputs(vault, session) ?? null) : null;
    return { session, checks, verifiedOutputs };
  });
}

async function latestChecks(
  db: DatabaseExecutor,
  session: Pick<VerificationSession, 'id' | 'submittedAt'>,
): Promise<SessionCheckView[]> {
  if (session.submittedAt === null) return [];
  const rows = await listSubmissionChecks(db, session.id, session.submittedAt);
  return rows.map(checkView);
}

/** A check as the API shows it: never its sealed evidence, nor the consequence the policy keeps with a failure. */
function checkView(row: VerificationCheck): SessionCheckView {
  const { consequence: _consequence, ...details } = row.details as Record<string, unknown>;
  return {
    kind: row.kind,
    source: row.source,
    outcome: row.outcome,
    code: row.code,
    summary: row.summary,
    details,
    createdAt: row.createdAt.toISOString(),
  };
}
