import type { Database, DatabaseExecutor, User } from '@platform/db';
import { conflict, internalError, invalidFields, isAppError, notFound, validationError } from '@platform/errors';
import { normaliseProfileChanges, pickWritableFields, type WritableProfileField } from './profile-fields.js';
import { avatarUploadExists, findUser, insertUserIfAbsent, updateUserProfile, userRecordExists } from './repository.js';
import type { AccountProfile } from './schemas.js';

// Spec section 7: the texts of the profile endpoints' errors are part of the contract.
const PROFILE_NOT_FOUND = 'Profile not found';
const NO_VALID_FIELDS = 'No valid fields provided for update';
const PROFILE_STORE_FAILED = 'Failed to fetch/update profile';
// docs/decisions.md#profile-creation
const NO_EMAIL_CLAIM = 'The access token carries no email address';
const PROFILE_EXISTS = 'Profile already exists';
const EMAIL_TAKEN = 'Another profile already uses this email address';

/** The user's profile (docs/decisions.md#unset-profile-fields-are-omitted); 404 when the user has no record. */
export async function getProfile(db: Database, userId: string): Promise<AccountProfile> {
  const user = await profileStoreOperation(() => findUser(db, userId));
  if (user === undefined) throw notFound(PROFILE_NOT_FOUND);
  return profileOf(user);
}

/** The profile's fields as a form edits them: each writable one apart, null when not set. */
export interface EditableProfile {
  email: string;
  kycStatus: User['kycStatus'];
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  dob: string | null;
}

/** The fields PATCH /v1/accounts/me changes, as they are now (the dashboard's profile form); 404 without a record. */
export async function getEditableProfile(db: Database, userId: string): Promise<EditableProfile> {
  const user = await profileStoreOperation(() => findUser(db, userId));
  if (user === undefined) throw notFound(PROFILE_NOT_FOUND);
  const { email, kycStatus, firstName, lastName, phone, dob } = user;
  return { email, kycStatus, firstName, lastName, phone, dob };
}

/** The user as the profile endpoints show it: unset optional fields are omitted. */
function profileOf(user: User): AccountProfile {
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

/**
 * Applies a PATCH body (docs/decisions.md#profile-updates): only the writable fields in it, checked and normalised,
 * at least one of them; `avatarUrl` only if this service issued it to the user. 400 for what fails the rules,
 * 404 when the user has no record.
 */
export async function updateProfile(
  db: Database,
  userId: string,
  body: Partial<Record<WritableProfileField, unknown>>,
  now: () => Date,
): Promise<void> {
  const requested = pickWritableFields(body);
  if (Object.keys(requested).length === 0) throw validationError(NO_VALID_FIELDS);
  const checked = normaliseProfileChanges(requested, utcDate(now()));
  if (!checked.ok) throw invalidFields(checked.details);
  const { changes } = checked;
  await profileStoreOperation(() =>
    db.transaction(async (tx) => {
      if (!(await userRecordExists(tx, userId))) throw notFound(PROFILE_NOT_FOUND);
      if (changes.avatarUrl !== undefined && !(await avatarUploadExists(tx, userId, changes.avatarUrl))) {
        throw invalidFields([
          { path: '/avatarUrl', message: 'must be a URL returned to this user by POST /v1/auth/avatar' },
        ]);
      }
      if (!(await updateUserProfile(tx, userId, changes, now()))) throw notFound(PROFILE_NOT_FOUND);
    }),
  );
}

/** The body of POST /v1/accounts (the schema has checked the types and refused unknown fields). */
export interface NewProfile {
  firstName: string;
  lastName: string;
  phone?: string;
}

/**
 * Creates the profile of the token's user (docs/decisions.md#profile-creation): the names and phone under the
 * rules of a profile update, the email address from the token only. 400 when the token carries no usable address,
 * 409 when the user has a profile already or another profile has the address; the unique indexes decide between
 * concurrent creations, so exactly one succeeds.
 */
export async function createProfile(
  db: Database,
  user: { id: string; email?: string },
  body: NewProfile,
  now: () => Date,
): Promise<AccountProfile> {
  if (user.email === undefined) throw validationError(NO_EMAIL_CLAIM);
  const email = user.email;
  const checked = normaliseProfileChanges(pickWritableFields(body), utcDate(now()));
  if (!checked.ok) throw invalidFields(checked.details);
  const { firstName, lastName, phone } = checked.changes;
  return profileStoreOperation(async () => {
    const created = await insertUserIfAbsent(db, {
      id: user.id,
      email,
      firstName: firstName ?? null,
      lastName: lastName ?? null,
      phone: phone ?? null,
      createdAt: now(),
      updatedAt: now(),
    });
    if (created !== undefined) return profileOf(created);
    throw conflict((await userRecordExists(db, user.id)) ? PROFILE_EXISTS : EMAIL_TAKEN);
  });
}

/** True when the user has a record (a token's subject may have none). */
export function userExists(db: DatabaseExecutor, userId: string): Promise<boolean> {
  return userRecordExists(db, userId);
}

/** Runs profile storage work; an unexpected failure becomes the spec's 500 (its cause is logged, not sent). */
async function profileStoreOperation<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw internalError(PROFILE_STORE_FAILED, { cause: error });
  }
}

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
