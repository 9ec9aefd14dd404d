import { type Database, unitOfWork, type VerificationSession } from '@platform/db';
import { addOrganizationActivation } from './activation-repository.js';

// Going live (docs/decisions.md#going-live): an organization is activated when the platform's own live KYB session
// of it is verified, or by an operator. The activation, its audit record and its owners' notification are parts of
// one statement, written once: the update only takes an organization not activated yet.

/**
 * Activates an organization without a session: the operator's command and the test setups of suites that need live
 * keys (docs/decisions.md#going-live). True when this activated it; false when it was activated already, retired or
 * unknown.
 */
export async function activateOrganization(
  db: Database,
  organizationId: string,
  { now = new Date(), operator }: { now?: Date; operator: string },
): Promise<boolean> {
  let done = false;
  await unitOfWork(db, async (work) => {
    addOrganizationActivation(work, { organizationId, operator }, { now, actor: operator }, (activated) => {
      done = activated;
    });
  });
  return done;
}

/** Whether a session's status change activates an organization: the platform's live KYB session, verified. */
export function activatesOrganization(
  session: Pick<VerificationSession, 'organizationId' | 'environment' | 'type' | 'status'>,
  platformOrganizationId: string | undefined,
): boolean {
  return (
    platformOrganizationId !== undefined &&
    session.organizationId === platformOrganizationId &&
    session.type === 'kyb' &&
    session.environment === 'live' &&
    session.status === 'verified'
  );
}
