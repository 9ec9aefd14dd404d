import { type Database, type UnitOfWork, unitOfWork, type VerificationSession } from '@platform/db';
import { notificationsPart } from '@platform/notifications';
import {
  ACTIVATED_OWNERS_PART,
  ACTIVATED_PART,
  type ActivationCause,
  organizationActivationParts,
} from '@platform/organizations';
import { sql } from 'drizzle-orm';
import type { LifecycleOptions } from './lifecycle.js';

// Going live (docs/decisions.md#going-live): an organization is activated when the platform's own live KYB session
// of it is verified, or by an operator. The activation, its audit record and its owners' notification are parts of
// one statement, written once: the update only takes an organization not activated yet.

/** What the owners are told when their organization goes live. */
export const ACTIVATED_NOTIFICATION = {
  title: 'Your organization is live',
  message: 'Your business is verified: live API keys and live wallet top-ups are unlocked.',
  type: 'success' as const,
  actionUrl: null,
};

/**
 * Adds the activation to the unit of work, written at its commit with the unit's other writes: the organization the
 * cause names, when it is neither activated nor retired, its `organization.activated` audit record and one
 * notification for each of its owners. `activated` (when given) is told whether this activated it.
 */
export function addOrganizationActivation(
  work: UnitOfWork,
  cause: ActivationCause,
  context: { now: Date; actor: string },
  activated?: (done: boolean) => void,
): void {
  work.add({
    parts: [
      ...organizationActivationParts(cause, context),
      ['activated_organization_notifications', notificationsPart(ACTIVATED_OWNERS_PART, ACTIVATED_NOTIFICATION)],
    ],
    ...(activated === undefined
      ? {}
      : {
          answer: [['activated_organization', sql`exists (select 1 from ${sql.identifier(ACTIVATED_PART)})`]],
          settle: (answer) => activated(answer['activated_organization'] === true),
        }),
  });
}

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
  options: LifecycleOptions,
): boolean {
  return (
    options.platformOrganizationId !== undefined &&
    session.organizationId === options.platformOrganizationId &&
    session.type === 'kyb' &&
    session.environment === 'live' &&
    session.status === 'verified'
  );
}
