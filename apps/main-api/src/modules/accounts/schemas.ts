import { kycStatuses } from '@platform/db';
import { singleLineName, stringEnum } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import { EARLIEST_DATE_OF_BIRTH, NAME_MAX_LENGTH } from './profile-fields.js';

/** A first or last name, on one line (docs/decisions.md#single-line-names); its length is checked after trimming. */
const personName = singleLineName({ description: `1-${NAME_MAX_LENGTH} characters after trimming, on one line.` });

/** The profile as GET /v1/accounts/me returns it. Optional fields are omitted when not set. */
const AccountProfileSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({ description: 'firstName and lastName joined by a space; omitted when both are empty.' }),
    ),
    email: Type.String({ description: "The user's email address." }),
    avatarUrl: Type.Optional(Type.String({ description: 'Public URL of the profile photo.' })),
    phone: Type.Optional(Type.String({ description: 'Phone number in E.164 format, e.g. +254712345678.' })),
    dob: Type.Optional(Type.String({ format: 'date', description: 'Date of birth, YYYY-MM-DD.' })),
    kycStatus: stringEnum(kycStatuses, { description: 'Identity-verification status.' }),
  },
  { $id: 'AccountProfile', additionalProperties: false },
);

export type AccountProfile = Static<typeof AccountProfileSchema>;

export const AccountProfileResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(AccountProfileSchema) },
  { $id: 'AccountProfileResponse' },
);

/**
 * POST body (docs/decisions.md#profile-creation): both names required, the phone optional, under the rules of
 * PATCH (checked by the service). Unknown fields are refused: the email address comes from the token, never
 * from here, so an `email` field is an error rather than silently ignored.
 */
export const CreateProfileBodySchema = Type.Object(
  {
    firstName: personName,
    lastName: personName,
    phone: Type.Optional(
      Type.String({
        description: 'A valid phone number; without a country code it is read as Kenyan. Stored as E.164.',
        examples: ['+254712345678', '0712345678'],
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * PATCH body. Fields not listed here (email, kycStatus, anything else) are accepted and ignored. Rules that
 * need trimming or parsing are checked by the handler, which reports them like schema errors.
 */
export const UpdateProfileBodySchema = Type.Object(
  {
    firstName: Type.Optional(personName),
    lastName: Type.Optional(personName),
    phone: Type.Optional(
      Type.String({
        description: 'A valid phone number; without a country code it is read as Kenyan. Stored as E.164.',
        examples: ['+254712345678', '0712345678'],
      }),
    ),
    dob: Type.Optional(
      Type.String({
        description:
          `Date of birth: YYYY-MM-DD (or an ISO 8601 date-time, whose date part is used); a real date, ` +
          `not in the future, not before ${EARLIEST_DATE_OF_BIRTH}.`,
        examples: ['1992-04-18'],
      }),
    ),
    avatarUrl: Type.Optional(Type.String({ description: 'A URL returned to this user by POST /v1/auth/avatar.' })),
  },
  { additionalProperties: true },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const accountSharedSchemas = [AccountProfileSchema, AccountProfileResponseSchema];
