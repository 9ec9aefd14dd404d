import type { DatabaseExecutor } from '@platform/db';
import { organizations } from '@platform/db/schema/organizations';
import { ledgerTransactions } from '@platform/db/schema/wallets';
import { eq } from 'drizzle-orm';

export async function organizationExists(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  const [organization] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization !== undefined;
}

/** The wallet a ledger transaction moved money on. */
export async function findTransactionWalletId(
  db: DatabaseExecutor,
  transactionId: string,
): Promise<string | undefined> {
  const [transaction] = await db
    .select({ walletId: ledgerTransactions.walletId })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.id, transactionId));
  return transaction?.walletId;
}
