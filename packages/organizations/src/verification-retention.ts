// How long an organization's verification records are kept after a session's final status
// (docs/decisions.md#retention-per-organization): its own period, set in main-api within the platform's bounds, or
// the platform's default. Both services read the bounds from the same variables (VERIFICATION_RETENTION_DAYS,
// _MIN_DAYS, _MAX_DAYS).

export interface VerificationRetentionBounds {
  /** The period of an organization that set none. */
  defaultDays: number;
  minDays: number;
  maxDays: number;
}

/** Why the bounds cannot be used (unless min <= default <= max), or undefined when they can. */
export function retentionBoundsProblem(bounds: VerificationRetentionBounds): string | undefined {
  const { minDays, defaultDays, maxDays } = bounds;
  if (minDays <= defaultDays && defaultDays <= maxDays) return undefined;
  return (
    `VERIFICATION_RETENTION_MIN_DAYS (${minDays}) <= VERIFICATION_RETENTION_DAYS (${defaultDays}) <= ` +
    `VERIFICATION_RETENTION_MAX_DAYS (${maxDays}) must hold`
  );
}

/**
 * The period that applies: the organization's own, or the default; a stored period the platform's bounds no longer
 * allow (they were narrowed after it was set) is brought within them, so the bounds always hold.
 */
export function effectiveRetentionDays(stored: number | null, bounds: VerificationRetentionBounds): number {
  return Math.min(bounds.maxDays, Math.max(bounds.minDays, stored ?? bounds.defaultDays));
}
