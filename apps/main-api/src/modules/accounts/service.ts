import type { Database } from '@platform/db';
import { preparedPerDatabase } from '@platform/db';
import { avatarUploads, users } from '@platform/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { ProfileChanges } from './profile-fields.js';
import type { AccountProfile } from './schemas.js';

const userById = preparedPerDatabase((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('account_profile_user'),
);

/** The user's profile, or null when the user has no record. */
export async function findProfile(db: Database, userId: string): Promise<AccountProfile | null> {
  const [user] = await userById(db).execute({ userId });
  if (user === undefined) return null;

  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
  const profile: AccountProfile = { email: user.email, kycStatus: user.kycStatus };
  if (name !== '') profile.name = name;
  if (user.avatarUrl !== null) profile.avatarUrl = user.avatarUrl;
  if (user.phone !== null) profile.phone = user.phone;
  if (user.dob !== null) profile.dob = user.dob;
  return profile;
}

export async function userExists(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

/** True when `url` is an avatar this service stored for this user. */
export async function isAvatarIssuedTo(db: Database, userId: string, url: string): Promise<boolean> {
  const [row] = await db
    .select({ id: avatarUploads.id })
    .from(avatarUploads)
    .where(and(eq(avatarUploads.userId, userId), eq(avatarUploads.url, url)));
  return row !== undefined;
}

/** Writes the given (already validated) fields. Returns false when the user has no record. */
export async function updateProfile(
  db: Database,
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
