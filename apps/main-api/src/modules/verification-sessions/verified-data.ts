import type { Database, MembershipRole } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { forbidden, notFound } from '@platform/errors';
import {
  findSession,
  listTransitions,
  openVerifiedOutputs,
  SESSION_NOT_FOUND,
  type VerifiedOutputs,
} from '@platform/verification-lifecycle';
import { listSessionCallbacks } from '@platform/webhooks';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import { allows, rolesThatMay } from '../organizations/index.js';
import type { OrganizationSessionDetailView } from './schemas.js';
import { sessionDetailView } from './views.js';

// What a verification verified, read by a member (docs/decisions.md#verified-data): the twin of backend-api's
// `expand=verified_outputs` for API keys. The role is asked before anything is read; the read and its audit record
// share one transaction, so no data is answered whose read was not recorded.

const PERMISSION = 'verifications:read_personal_data';

/** The 403 of a role without the permission: it names the permission and the roles that hold it. */
const VERIFIED_DATA_REFUSAL = `expand=verified_outputs needs the role ${rolesThatMay(PERMISSION)} (${PERMISSION})`;

/** Whether the role may read verified data. */
function mayReadVerifiedData(role: MembershipRole): boolean {
  return allows(role, PERMISSION);
}

export interface VerifiedDataRead {
  organizationId: string;
  sessionId: string;
  role: MembershipRole;
  audit: AuditContext & { actorUserId: string };
}

type OrganizationSessionWithVerifiedData = OrganizationSessionDetailView & {
  verifiedOutputs: VerifiedOutputs | null;
};

/**
 * The organization's session with its timeline and what was verified (null before a verified decision and after
 * erasure), with `verification.verified_data_viewed` recorded; 403 for a role without the permission, before any
 * read; 404 for an unknown id and another organization's alike (nothing recorded).
 */
export async function getOrganizationSessionWithVerifiedData(
  db: Database,
  vault: Pick<DocumentVault, 'open'>,
  read: VerifiedDataRead,
): Promise<OrganizationSessionWithVerifiedData> {
  if (!mayReadVerifiedData(read.role)) throw forbidden(VERIFIED_DATA_REFUSAL);
  const { organizationId, sessionId, audit } = read;
  return db.transaction(async (tx) => {
    const session = await findSession(tx, sessionId, { organizationId });
    if (session === undefined) throw notFound(SESSION_NOT_FOUND);
    const transitions = await listTransitions(tx, sessionId);
    const callbacks = await listSessionCallbacks(tx, { organizationId, sessionId });
    // In the read's transaction: a read the audit log cannot record is not answered.
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'verification.verified_data_viewed',
      targetType: 'verification_session',
      targetId: sessionId,
      details: { userId: audit.actorUserId },
    });
    const verifiedOutputs =
      session.personalDataErasedAt === null ? (openVerifiedOutputs(vault, session) ?? null) : null;
    return { ...sessionDetailView(session, transitions, callbacks), verifiedOutputs };
  });
}
