import type { Database } from '@platform/db';
import { ledgerTransactions, users, verificationDocuments, verificationSessions } from '@platform/db/schema';
import { and, asc, eq, isNull } from 'drizzle-orm';

// What the journeys read back from the database to prove their claims.

/** The kinds of the ledger movements of a session's hold (hold, then capture or release). */
export async function holdMovements(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, `verification_session:${sessionId}`));
  return rows.map((row) => row.kind).sort();
}

/** The ledger movements of a session's hold in the order written, with the wallet's balances right after each. */
export async function holdLedger(db: Database, sessionId: string) {
  return db
    .select({
      kind: ledgerTransactions.kind,
      amount: ledgerTransactions.amount,
      availableAfter: ledgerTransactions.availableAfter,
      heldAfter: ledgerTransactions.heldAfter,
    })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, `verification_session:${sessionId}`))
    .orderBy(asc(ledgerTransactions.createdAt));
}

export async function sessionRow(db: Database, sessionId: string) {
  const [row] = await db.select().from(verificationSessions).where(eq(verificationSessions.id, sessionId));
  if (row === undefined) throw new Error(`No session ${sessionId}`);
  return row;
}

export async function kycStatusOf(db: Database, userId: string) {
  const [row] = await db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, userId));
  return row?.kycStatus;
}

/** The session's current documents: kind and storage key. */
export async function currentDocuments(db: Database, sessionId: string) {
  return db
    .select({
      id: verificationDocuments.id,
      kind: verificationDocuments.kind,
      storageKey: verificationDocuments.storageKey,
    })
    .from(verificationDocuments)
    .where(
      and(
        eq(verificationDocuments.sessionId, sessionId),
        isNull(verificationDocuments.supersededAt),
        isNull(verificationDocuments.erasedAt),
      ),
    );
}
