import { randomUUID } from 'node:crypto';
import { type ApiKeyOwner, type Database, isUuid } from '@platform/db';
import { findTransactionWalletId, topUpWallet, type WalletStatementPage, walletStatement } from '@platform/ledger';
import { organizationExists } from '@platform/organizations';

/** The balances of the owner's wallet, whole KES; a wallet never used is created empty. */
export { walletBalances } from '@platform/ledger';

/** A page of the owner's wallet statement, newest first (docs/decisions.md#wallet-statement). */
export function walletTransactions(
  db: Database,
  owner: ApiKeyOwner,
  page: { limit: number; cursor: string | undefined },
): Promise<WalletStatementPage> {
  return walletStatement(db, owner, page);
}

/** A credit of the wallet of an organization's environment. */
export interface CreditWalletInput extends ApiKeyOwner {
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
    if (!(await organizationExists(tx, input.organizationId))) {
      throw new Error(`No organization with id ${input.organizationId}`);
    }
    const result = await topUpWallet(
      tx,
      { organizationId: input.organizationId, environment: input.environment },
      { amount: input.amount, reference, description: input.description ?? 'Wallet credit' },
    );
    if (!result.applied) {
      if ((await findTransactionWalletId(tx, result.transactionId)) !== result.wallet.id) {
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
