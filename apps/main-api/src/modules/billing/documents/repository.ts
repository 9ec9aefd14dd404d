import type { Transaction } from '@platform/db';
import { documentNumberSeries } from '@platform/db/schema/billing-documents';
import { findOrganizationBuyer } from '@platform/organizations';
import { sql } from 'drizzle-orm';

/**
 * The next number of `series`, taken in the caller's transaction: the UPDATE (or, for the first number, the INSERT)
 * locks the series' row until that transaction ends, so concurrent issuers wait for each other and a transaction
 * that rolls back gives its number back. Gapless, unlike a SEQUENCE (docs/decisions.md#billing-documents).
 */
export async function takeNextNumber(tx: Transaction, series: string): Promise<number> {
  const [taken] = await tx
    .insert(documentNumberSeries)
    .values({ series, lastNumber: 1 })
    .onConflictDoUpdate({
      target: documentNumberSeries.series,
      set: { lastNumber: sql`${documentNumberSeries.lastNumber} + 1` },
    })
    .returning({ number: documentNumberSeries.lastNumber });
  if (taken === undefined) throw new Error(`No number was taken in the series ${series}`);
  return taken.number;
}

/** The buyer a billing document names: the organization's name and KRA PIN as they are now. */
export async function findBuyer(
  tx: Transaction,
  organizationId: string,
): Promise<{ name: string; kraPin: string | null }> {
  const buyer = await findOrganizationBuyer(tx, organizationId);
  if (buyer === undefined) throw new Error(`No organization ${organizationId} to name on a billing document`);
  return buyer;
}
