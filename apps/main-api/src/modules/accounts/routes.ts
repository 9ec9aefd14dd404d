import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses, SuccessMessage } from '@platform/http';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { AccountProfileResponseSchema, CreateProfileBodySchema, UpdateProfileBodySchema } from './schemas.js';
import { createProfile, getProfile, updateProfile } from './service.js';

export interface AccountRoutesOptions {
  db: Database;
  now: () => Date;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, { db, now }) => {
  const tags = ['accounts'];

  app.post(
    '/v1/accounts',
    {
      schema: {
        tags,
        summary: "Create the authenticated user's profile",
        description:
          "Creates the profile of the token's user: firstName and lastName (required) and phone under the rules " +
          "of PATCH /v1/accounts/me. The email address is the token's `email` claim, never the body's (an `email` " +
          'field, like any unknown field, is refused); a token without one is answered 400. A user who already has ' +
          'a profile, or whose address another profile uses, gets 409. Answers the profile as GET ' +
          '/v1/accounts/me does.',
        security: bearerSecurity,
        body: CreateProfileBodySchema,
        response: { 201: ref(AccountProfileResponseSchema), ...errorResponses(400, 401, 409, 500) },
      },
    },
    async (request, reply) => {
      const profile = await createProfile(db, request.user, request.body, now);
      return reply.code(201).send({ success: true as const, data: profile });
    },
  );

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
