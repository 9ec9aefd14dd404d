import { type Database, type DatabaseExecutor, preparedPerDatabase } from '@platform/db';
import { dashboardSessions } from '@platform/db/schema/dashboard';
import { and, eq, lte, sql } from 'drizzle-orm';

// Every statement of the dashboard's sessions (docs/decisions.md#dashboard-sign-in). Sessions are found by the SHA-256
// of their secret; the secret itself is never stored.

export async function insertDashboardSession(
  db: DatabaseExecutor,
  values: { secretHash: string; userId: string; createdAt: Date; expiresAt: Date; idToken: string | null },
): Promise<void> {
  await db.insert(dashboardSessions).values(values);
}

/** Removes every session that ran out by `now`, anyone's: they open nothing, and nothing else removes them. */
export async function deleteExpiredDashboardSessions(db: DatabaseExecutor, now: Date): Promise<void> {
  await db.delete(dashboardSessions).where(lte(dashboardSessions.expiresAt, now));
}

// Every dashboard page asks it first: prepared once per database, so it is built once and parsed once per connection
// (docs/benchmarks.md#the-verifications-page-get-dashboardverifications-3-dec).
const sessionUserStatement = preparedPerDatabase((db) =>
  db
    .select({ userId: dashboardSessions.userId })
    .from(dashboardSessions)
    .where(
      and(
        eq(dashboardSessions.secretHash, sql.placeholder('secretHash')),
        sql`${dashboardSessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
      ),
    )
    .prepare('dashboard_session_user'),
);

/** The user of the session with this secret hash, while it has not run out; undefined otherwise. */
export async function findDashboardSessionUser(
  db: Database,
  secretHash: string,
  now: Date,
): Promise<string | undefined> {
  const [row] = await sessionUserStatement(db).execute({ secretHash, now: now.toISOString() });
  return row?.userId;
}

/** Removes the session with this secret hash; the ID token it kept (null when none), undefined when there was none. */
export async function deleteDashboardSession(
  db: DatabaseExecutor,
  secretHash: string,
): Promise<{ idToken: string | null } | undefined> {
  const [removed] = await db
    .delete(dashboardSessions)
    .where(eq(dashboardSessions.secretHash, secretHash))
    .returning({ idToken: dashboardSessions.idToken });
  return removed;
}

/** Removes every session of the user, run out or not; when each would have ended. */
export async function deleteDashboardSessionsOf(db: DatabaseExecutor, userId: string): Promise<Date[]> {
  const removed = await db
    .delete(dashboardSessions)
    .where(eq(dashboardSessions.userId, userId))
    .returning({ expiresAt: dashboardSessions.expiresAt });
  return removed.map((row) => row.expiresAt);
}
