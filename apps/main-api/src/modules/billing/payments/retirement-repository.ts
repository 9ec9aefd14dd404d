import type { DatabaseExecutor, Transaction } from '@platform/db';
import { payments } from '@platform/db/schema/payments';
import { lockOrganizationKeyShare } from '@platform/organizations';
import { and, eq, ne } from 'drizzle-orm';

// The lock that decides between an organization's retirement and the money arriving for it
// (docs/decisions.md#retired-organizations-take-no-money). Retirement holds the organization's row FOR UPDATE; everything
// that records money for an organization or activates something it paid for holds it FOR KEY SHARE first, which only
// retirement (and a rename or a deletion, for the moment they take) conflicts with. So a settlement either commits
// before the retirement starts, which then finds its effects and ends them, or waits for the retirement to commit and
// sees the organization retired.

/**
 * The organization's row, locked FOR KEY SHARE until the transaction ends, and when it was retired (null: it was not).
 * With `skipLocked`, undefined instead of waiting when a retirement (or a rename) holds it: for the jobs, which took
 * another row first and must not wait here while holding it.
 */
export async function lockOrganizationForMoney(
  tx: Transaction,
  organizationId: string,
  options: { skipLocked?: boolean } = {},
): Promise<{ retiredAt: Date | null } | undefined> {
  return lockOrganizationKeyShare(tx, organizationId, options);
}

/**
 * How many of the organization's payments a provider still holds the outcome of (pending, but for bank transfers):
 * what its retirement leaves to the providers, whose successes are then recorded to refund.
 */
export function countPendingWithProviders(tx: Transaction, organizationId: string): Promise<number> {
  return tx.$count(
    payments,
    and(
      eq(payments.organizationId, organizationId),
      eq(payments.status, 'pending'),
      ne(payments.channel, 'bank_transfer'),
    ),
  );
}

/** True when the organization ever had a payment, whatever its outcome (docs/decisions.md#organization-deletion). */
export async function hasPaymentHistory(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  const [payment] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.organizationId, organizationId))
    .limit(1);
  return payment !== undefined;
}
