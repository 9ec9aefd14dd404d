import type { DatabaseExecutor } from '@platform/db';
import { reviewConsoleSessions } from '@platform/db/schema/review-console';
import { and, eq, gt, lte } from 'drizzle-orm';

// Every statement of the review console's sessions (docs/decisions.md#console-sessions). Sessions are found by the
// SHA-256 of their secret; the secret itself is never stored.

export async function insertConsoleSession(
  db: DatabaseExecutor,
  values: { secretHash: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(reviewConsoleSessions).values(values);
}

/** Removes every session that ran out by `now`, anyone's: they open nothing, and nothing else removes them. */
export async function deleteExpiredConsoleSessions(db: DatabaseExecutor, now: Date): Promise<void> {
  await db.delete(reviewConsoleSessions).where(lte(reviewConsoleSessions.expiresAt, now));
}

/** The user of the session with this secret hash, while it has not run out; undefined otherwise. */
export async function findConsoleSessionUser(
  db: DatabaseExecutor,
  secretHash: string,
  now: Date,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: reviewConsoleSessions.userId })
    .from(reviewConsoleSessions)
    .where(and(eq(reviewConsoleSessions.secretHash, secretHash), gt(reviewConsoleSessions.expiresAt, now)));
  return row?.userId;
}

export async function deleteConsoleSession(db: DatabaseExecutor, secretHash: string): Promise<void> {
  await db.delete(reviewConsoleSessions).where(eq(reviewConsoleSessions.secretHash, secretHash));
}

/** Removes every session of the user, run out or not; when each would have ended. */
export async function deleteConsoleSessionsOf(db: DatabaseExecutor, userId: string): Promise<Date[]> {
  const removed = await db
    .delete(reviewConsoleSessions)
    .where(eq(reviewConsoleSessions.userId, userId))
    .returning({ expiresAt: reviewConsoleSessions.expiresAt });
  return removed.map((row) => row.expiresAt);
}
