import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { internalError, isAppError, notFound, type ValidationDetail, validationError } from '@platform/errors';
import { errorResponses, SuccessMessage } from '@platform/http';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { normaliseProfileChanges, pickWritableFields } from './profile-fields.js';
import { AccountProfileResponseSchema, UpdateProfileBodySchema } from './schemas.js';
import { findProfile, isAvatarIssuedTo, updateProfile, userExists } from './service.js';

export interface AccountRoutesOptions {
  db: Database;
  now: () => Date;
}

// Spec section 7: the texts of the profile endpoints' errors are part of the contract.
const PROFILE_NOT_FOUND = 'Profile not found';
const NO_VALID_FIELDS = 'No valid fields provided for update';
const PROFILE_STORE_FAILED = 'Failed to fetch/update profile';

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, { db, now }) => {
  const tags = ['accounts'];

  app.get(
    '/v1/accounts/me',
    {
      schema: {
        tags,
        summary: "Get the authenticated user's profile",
        security: bearerSecurity,
        response: { 200: ref(AccountProfileResponseSchema), ...errorResponses(401, 404, 500) },
      },
    },
    async (request) => {
      const profile = await profileStoreOperation(() => findProfile(db, request.user.id));
      if (profile === null) throw notFound(PROFILE_NOT_FOUND);
      return { success: true as const, data: profile };
    },
  );

  app.patch(
    '/v1/accounts/me',
    {
      schema: {
        tags,
        summary: "Update the authenticated user's profile",
        description:
          'Updates only the writable fields present in the body (firstName, lastName, phone, dob, avatarUrl); ' +
          'other fields, including email and kycStatus, are ignored. At least one writable field is required.',
        security: bearerSecurity,
        body: UpdateProfileBodySchema,
        response: { 200: ref(SuccessMessage), ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const userId = request.user.id;
      const requested = pickWritableFields(request.body);
      if (Object.keys(requested).length === 0) throw validationError(NO_VALID_FIELDS);

      const checked = normaliseProfileChanges(requested, utcDate(now()));
      if (!checked.ok) throw invalidFields(checked.details);
      const { changes } = checked;

      await profileStoreOperation(async () => {
        if (!(await userExists(db, userId))) throw notFound(PROFILE_NOT_FOUND);
        if (changes.avatarUrl !== undefined && !(await isAvatarIssuedTo(db, userId, changes.avatarUrl))) {
          throw invalidFields([
            { path: '/avatarUrl', message: 'must be a URL returned to this user by POST /v1/auth/avatar' },
          ]);
        }
        if (!(await updateProfile(db, userId, changes, now()))) throw notFound(PROFILE_NOT_FOUND);
      });
      return { success: true as const, message: 'Profile updated' };
    },
  );
};

/** Runs profile storage work; an unexpected failure becomes the spec's 500 (its cause is logged, not sent). */
async function profileStoreOperation<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw internalError(PROFILE_STORE_FAILED, { cause: error });
  }
}

// Worded like the schema validation errors ("body/phone must be ..."), so clients see one style.
function invalidFields(details: ValidationDetail[]) {
  return validationError(details.map((detail) => `body${detail.path} ${detail.message}`).join(', '), details);
}

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
