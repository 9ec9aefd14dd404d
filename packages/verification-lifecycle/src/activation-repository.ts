import type { UnitOfWork } from '@platform/db';
import { notificationsPart } from '@platform/notifications';
import {
  ACTIVATED_OWNERS_PART,
  ACTIVATED_PART,
  type ActivationCause,
  organizationActivationParts,
} from '@platform/organizations';
import { sql } from 'drizzle-orm';

// The write of an organization's activation (docs/decisions.md#going-live): the activation, its audit record and its
// owners' notification, parts of one statement of the unit, written once: the update only takes an organization not
// activated yet.

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
