import type { Database } from '@platform/db';
import { invalidFields, notFound } from '@platform/errors';
import {
  effectiveRetentionDays,
  findVerificationRetentionDays,
  type VerificationRetentionBounds,
} from '@platform/organizations';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import { lockOrganization, updateVerificationRetentionDays } from './repository.js';
import { ORGANIZATION_NOT_FOUND } from './service.js';

// An organization's own retention period for its verification records, within the platform's bounds
// (docs/decisions.md#retention-per-organization). backend-api's retention job and consent notice read it.

export interface VerificationRetentionView {
  /** The organization's own period; null: the platform's default. */
  days: number | null;
  /** The period that applies. */
  effectiveDays: number;
  defaultDays: number;
  minDays: number;
  maxDays: number;
}

function viewOf(days: number | null, bounds: VerificationRetentionBounds): VerificationRetentionView {
  return { days, effectiveDays: effectiveRetentionDays(days, bounds), ...bounds };
}

/** The message of a period outside the bounds: the field, the bounds and what null means. */
function retentionRefusal(bounds: VerificationRetentionBounds): string {
  return (
    `days must be a whole number from ${bounds.minDays} to ${bounds.maxDays}, or null for the platform's default ` +
    `(${bounds.defaultDays})`
  );
}

export async function getVerificationRetention(
  db: Database,
  organizationId: string,
  bounds: VerificationRetentionBounds,
): Promise<VerificationRetentionView> {
  return viewOf(await findVerificationRetentionDays(db, organizationId), bounds);
}

/**
 * Sets the organization's period (null: back to the default) and records the change in the audit log; a period
 * outside the bounds is a 400 that changes nothing, the same period again records nothing.
 */
export async function setVerificationRetention(
  db: Database,
  audit: AuditContext,
  input: { organizationId: string; days: number | null; bounds: VerificationRetentionBounds },
): Promise<VerificationRetentionView> {
  const { organizationId, days, bounds } = input;
  if (days !== null && (!Number.isInteger(days) || days < bounds.minDays || days > bounds.maxDays)) {
    throw invalidFields([{ path: '/days', message: retentionRefusal(bounds) }]);
  }
  return db.transaction(async (tx) => {
    const organization = await lockOrganization(tx, organizationId);
    if (organization === undefined || organization.retiredAt !== null) throw notFound(ORGANIZATION_NOT_FOUND);
    const before = await findVerificationRetentionDays(tx, organizationId);
    if (before !== days) {
      await updateVerificationRetentionDays(tx, organizationId, days);
      await recordAuditEvent(tx, audit, {
        organizationId,
        action: 'organization.verification_retention_changed',
        targetType: 'organization',
        targetId: organizationId,
        details: { days: { from: before, to: days } },
      });
    }
    return viewOf(days, bounds);
  });
}
