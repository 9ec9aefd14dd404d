import { Type } from '@sinclair/typebox';

export const ConsoleSessionUserParams = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: 255, description: 'The user id (the token subject).' }),
});

/** DELETE /v1/review-console/users/:userId/sessions */
export const EndedConsoleSessionsSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({
      userId: Type.String(),
      ended: Type.Integer({
        minimum: 0,
        description: 'How many of the user’s console sessions were open and are ended.',
      }),
    }),
  },
  { $id: 'EndedConsoleSessions' },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const consoleSessionSharedSchemas = [EndedConsoleSessionsSchema];
