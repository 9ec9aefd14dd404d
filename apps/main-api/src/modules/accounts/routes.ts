import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses, SuccessMessage } from '@platform/http';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { AccountProfileResponseSchema, UpdateProfileBodySchema } from './schemas.js';
import { getProfile, updateProfile } from './service.js';

export interface AccountRoutesOptions {
  db: Database;
  now: () => Date;
}

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
    async (request) => ({ success: true as const, data: await getProfile(db, request.user.id) }),
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
      await updateProfile(db, request.user.id, request.body, now);
      return { success: true as const, message: 'Profile updated' };
    },
  );
};
