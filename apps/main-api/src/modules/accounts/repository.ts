import { type Database, type DatabaseExecutor, type NewUser, preparedPerDatabase, type User } from '@platform/db';
import { avatarUploads } from '@platform/db/schema/avatar-uploads';
import { users } from '@platform/db/schema/users';
import { and, eq, sql } from 'drizzle-orm';
import type { ProfileChanges } from './profile-fields.js';

// Read on every GET /v1/accounts/me: prepared once per database, so it runs on the database itself (a prepared
// statement cannot join a transaction).
const userById = preparedPerDatabase((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('account_profile_user'),
);

/** The user's row, or undefined when the user has no record. */
export async function findUser(db: Database, userId: string) {
  const [user] = await userById(db).execute({ userId });
  return user;
}

/** The user's email address, or undefined when the user has no record. */
export async function findUserEmail(db: DatabaseExecutor, userId: string): Promise<string | undefined> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}

export async function userRecordExists(db: DatabaseExecutor, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

/**
 * Creates the user's record with an already validated profile. Returns the row, or undefined when nothing was
 * inserted because the id or the email address is taken (a concurrent create included: the unique indexes decide).
 */
export async function insertUserIfAbsent(db: DatabaseExecutor, values: NewUser): Promise<User | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

/** True when `url` is an avatar this service stored for this user. */
export async function avatarUploadExists(db: DatabaseExecutor, userId: string, url: string): Promise<boolean> {
  const [row] = await db
    .select({ id: avatarUploads.id })
    .from(avatarUploads)
    .where(and(eq(avatarUploads.userId, userId), eq(avatarUploads.url, url)));
  return row !== undefined;
}

/** Writes the given (already validated) fields. Returns false when the user has no record. */
export async function updateUserProfile(
  db: DatabaseExecutor,
  userId: string,
  changes: ProfileChanges,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated.length > 0;
}
