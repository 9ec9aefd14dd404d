import type { DatabaseExecutor, NewVerificationConsent, VerificationStatus } from '@platform/db';
import { verificationConsents, verificationSessions } from '@platform/db/schema/verification';
import { eq } from 'drizzle-orm';

// The hosted page's own queries: the consents it records and the draft it keeps. The name it shows as the data
// controller when the session has no app name, and the organization's allowed origins (main-api writes them), come
// from @platform/organizations; sessions themselves it reads and moves through the verification module.

/** The text versions of the consent notice the person has agreed to on this session (none: never agreed). */
export async function consentedTextVersions(db: DatabaseExecutor, sessionId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ textVersion: verificationConsents.textVersion })
    .from(verificationConsents)
    .where(eq(verificationConsents.sessionId, sessionId));
  return rows.map((row) => row.textVersion);
}

/**
 * Locks the session's row for the rest of the transaction, so two agreements to the same notice are recorded one
 * after the other; its status, or undefined when there is no such session.
 */
export async function lockSessionStatus(
  tx: DatabaseExecutor,
  sessionId: string,
): Promise<VerificationStatus | undefined> {
  const [session] = await tx
    .select({ status: verificationSessions.status })
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sessionId))
    .for('update');
  return session?.status;
}

export async function insertConsent(tx: DatabaseExecutor, values: NewVerificationConsent): Promise<void> {
  await tx.insert(verificationConsents).values(values);
}

/** Keeps the capture form's sealed draft on the session (null clears it), so no URL carries it. */
export async function saveDraftToken(db: DatabaseExecutor, sessionId: string, token: string | null): Promise<void> {
  await db.update(verificationSessions).set({ hostedPageDraft: token }).where(eq(verificationSessions.id, sessionId));
}
