import { type Database, type DatabaseExecutor, type NewUser, preparedPerDatabase, type User } from '@platform/db';
import { avatarUploads } from '@platform/db/schema/avatar-uploads';
import { users } from '@platform/db/schema/users';
import { type AnyColumn, and, eq, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
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

// Fragments of users for other modules' statements (organizations' members, billing's saved cards), which embed them
// as subqueries so a request keeps its round trips (docs/decisions.md#one-owner-per-table).

/** A column named with its table, so a subquery compares the embedding statement's row, whatever it joins. */
const qualified = (column: AnyColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** The email of the user `userId` (a column of the embedding statement) refers to; null when there is none. */
export function userEmailOf(userId: AnyColumn): SQL<string | null> {
  return sql<
    string | null
  >`(select ${qualified(users.email)} from ${users} where ${qualified(users.id)} = ${qualified(userId)})`;
}

/** The profile fields a member list shows of the user `userId` (a column of the embedding statement) refers to. */
export function userProfileOf(userId: AnyColumn): {
  email: SQL<string>;
  firstName: SQL<string | null>;
  lastName: SQL<string | null>;
} {
  return {
    email: sql<string>`(select ${qualified(users.email)} from ${users} where ${qualified(users.id)} = ${qualified(userId)})`,
    firstName: sql<
      string | null
    >`(select ${qualified(users.firstName)} from ${users} where ${qualified(users.id)} = ${qualified(userId)})`,
    lastName: sql<
      string | null
    >`(select ${qualified(users.lastName)} from ${users} where ${qualified(users.id)} = ${qualified(userId)})`,
  };
}

/** A user's name and address, for the email that says who invited; undefined without a profile. */
export async function findUserProfile(db: DatabaseExecutor, userId: string) {
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/** The names and addresses of these users, by id; a user without a profile is absent (a reviewer's history, say). */
export async function findUserProfiles(
  db: DatabaseExecutor,
  userIds: readonly string[],
): Promise<Map<string, { email: string; firstName: string | null; lastName: string | null }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.map(({ id, ...profile }) => [id, profile]));
}

/**
 * The user whose profile has this address, whatever its case (one at most: docs/decisions.md#one-account-per-email).
 * Undefined when no profile has it.
 */
export async function findUserIdByAddress(db: DatabaseExecutor, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row?.id;
}
