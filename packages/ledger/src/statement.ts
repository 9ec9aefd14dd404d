import type { ApiKeyOwner, Database, LedgerTransactionKind } from '@platform/db';
import { decodeCursor, pageOf } from '@platform/pagination';
import { referenceSubjectOf } from './references.js';
import { listWalletTransactionRows } from './repository.js';

// The wallet statement (docs/decisions.md#wallet-statement): every movement of one wallet, newest first, a page at
// a time, with the balances right after each as the ledger recorded them. backend-api (the key's environment) and
// main-api (either environment, for the organization's members) answer it alike.

/** One movement as a statement shows it. */
export interface WalletTransactionView {
  id: string;
  kind: LedgerTransactionKind;
  /** Whole KES, above 0; the kind says which way it moved. */
  amount: number;
  reference: string;
  sessionId: string | null;
  paymentReference: string | null;
  description: string | null;
  balanceAfter: { available: number; held: number };
  createdAt: string;
}

export interface WalletStatementPage {
  transactions: WalletTransactionView[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * A page of the owner's wallet statement. `cursor` is a page's `nextCursor` (anything else: 400 on
 * querystring/cursor). A wallet never used has an empty statement, and none is created for it. Runs on the database
 * itself, never in a transaction (its statements are prepared per database).
 */
export async function walletStatement(
  db: Database,
  owner: ApiKeyOwner,
  { limit, cursor }: { limit: number; cursor: string | undefined },
): Promise<WalletStatementPage> {
  const rows = await listWalletTransactionRows(db, owner, {
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.id }));
  return {
    transactions: page.map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      reference: row.reference,
      ...referenceSubjectOf(row.reference),
      description: row.description,
      balanceAfter: { available: row.availableAfter, held: row.heldAfter },
      createdAt: row.createdAt,
    })),
    nextCursor,
  };
}
