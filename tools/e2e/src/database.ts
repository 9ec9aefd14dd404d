import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import {
  ledgerTransactions,
  memberships,
  organizations,
  users,
  verificationDocuments,
  verificationSessions,
  verificationSessionTransitions,
} from '@platform/db/schema';
import { placeHold, topUpWallet } from '@platform/ledger';
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

/** A new organization owned by the profile of `email`, not activated yet (test data only; the create form is another journey's). */
export async function organizationOwnedBy(db: Database, email: string, name: string): Promise<string> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (owner === undefined) throw new Error(`No profile for ${email}`);
  const [organization] = await db.insert(organizations).values({ name, activatedAt: null }).returning();
  if (organization === undefined) throw new Error('Inserting the organization returned no row');
  await db.insert(memberships).values({ organizationId: organization.id, userId: owner.id, role: 'owner' });
  return organization.id;
}

/**
 * An organization owned by the user with this address, with one pending test session of its own as backend-api
 * would have created it (its price held), for the dashboard's pages to show; the session's id.
 */
export async function organizationWithTestSession(db: Database, ownerEmail: string, name: string): Promise<string> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
  if (owner === undefined) throw new Error(`No profile for ${ownerEmail}`);
  const sessionId = randomUUID();
  const now = new Date();
  await db.transaction(async (tx) => {
    const [organization] = await tx.insert(organizations).values({ name, activatedAt: now }).returning();
    if (organization === undefined) throw new Error('Inserting the organization returned no row');
    await tx.insert(memberships).values({ organizationId: organization.id, userId: owner.id, role: 'owner' });
    const wallet = { organizationId: organization.id, environment: 'test' as const };
    await topUpWallet(tx, wallet, { amount: 1000, reference: `e2e-funding:${sessionId}` });
    const { wallet: held } = await placeHold(tx, wallet, {
      amount: 50,
      reference: `verification_session:${sessionId}`,
      description: 'kyc verification',
    });
    await tx.insert(verificationSessions).values({
      id: sessionId,
      organizationId: organization.id,
      environment: 'test',
      walletId: held.id,
      type: 'kyc',
      status: 'pending',
      externalEndUserId: 'borrower-42',
      appName: name,
      decisionSource: 'sandbox',
      price: 50,
      requiredDocuments: ['national_id_or_passport', 'selfie'],
      expiresAt: new Date(now.getTime() + 86_400_000),
      createdAt: now,
      updatedAt: now,
    });
    await tx
      .insert(verificationSessionTransitions)
      .values({ sessionId, fromStatus: null, toStatus: 'pending', actor: 'api_key:e2e', createdAt: now });
  });
  return sessionId;
}
