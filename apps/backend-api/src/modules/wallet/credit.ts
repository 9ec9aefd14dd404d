import { randomUUID } from 'node:crypto';
import { type ApiKeyEnvironment, type Database, isUuid } from '@platform/db';
import { ledgerTransactions, organizations } from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { eq } from 'drizzle-orm';

export interface CreditWalletInput {
  organizationId: string;
  environment: ApiKeyEnvironment;
  /** Whole KES, above 0. */
  amount: number;
  /** Names the credit; a second credit with the same reference changes nothing. Default: a new one each time. */
  reference?: string;
  description?: string;
}

export interface CreditWalletResult {
  /** False when a credit with this reference was already made: the balances are unchanged. */
  applied: boolean;
  reference: string;
  available: number;
  held: number;
}

/** Adds money to an organization's wallet (until payments arrive, the only way money comes in). */
export async function creditWallet(db: Database, input: CreditWalletInput): Promise<CreditWalletResult> {
  const reference = input.reference ?? `manual:${randomUUID()}`;
  if (!isUuid(input.organizationId)) throw new Error(`No organization with id ${input.organizationId}`);
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.organizationId));
    if (organization === undefined) throw new Error(`No organization with id ${input.organizationId}`);
    const result = await topUpWallet(
      tx,
      { organizationId: input.organizationId, environment: input.environment },
      { amount: input.amount, reference, description: input.description ?? 'Wallet credit' },
    );
    if (!result.applied) {
      const [earlier] = await tx
        .select({ walletId: ledgerTransactions.walletId })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.id, result.transactionId));
      if (earlier?.walletId !== result.wallet.id) {
        throw new Error(`The reference ${reference} was already used to credit another wallet`);
      }
    }
    return {
      applied: result.applied,
      reference,
      available: result.wallet.availableBalance,
      held: result.wallet.heldBalance,
    };
  });
}
