import { membershipRoles } from '@platform/db';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

/** RFC 5321's limit on a whole address. */
export const MAX_EMAIL_LENGTH = 320;

const role = Type.Union(
  membershipRoles.map((value) => Type.Literal(value)),
  { description: 'The role the invitee gets on accepting: owner, admin, developer, billing or member (read-only).' },
);

const status = Type.Union(
  [Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('revoked'), Type.Literal('expired')],
  {
    description:
      'pending until accepted or revoked; expired: still pending when expiresAt passed (it can no longer be ' +
      'accepted; a new invitation of the address replaces it).',
  },
);

/** POST body. Unknown fields are refused. */
export const CreateInvitationBodySchema = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: MAX_EMAIL_LENGTH,
      description:
        "The invitee's address (at most 320 characters; kept as written, compared without regard to case). Only " +
        'the user whose token carries this address can accept.',
      examples: ['colleague@example.com'],
    }),
    role,
  },
  { additionalProperties: false },
);

const InvitationSchema = Type.Object(
  {
    id: Type.String({ description: 'Invitation identifier (a random UUID).' }),
    email: Type.String(),
    role,
    status,
    invitedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'The user id of who invited; null once that user is gone.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: '7 days after createdAt.' }),
    closedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When it was accepted or revoked; null while pending.',
    }),
    acceptUrl: Type.String({
      description:
        "POST it with the invitee's bearer token to accept (POST /v1/invitations/{id}/accept); it grants nothing " +
        "without a token carrying the address. Opened in a browser (GET) it sends to the invitation's dashboard " +
        'page, which the email links to.',
    }),
  },
  { $id: 'Invitation', additionalProperties: false },
);

export type InvitationView = Static<typeof InvitationSchema>;

export const CreatedInvitationSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(InvitationSchema) },
  { $id: 'CreatedInvitation' },
);

export const InvitationListSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(ref(InvitationSchema), { description: 'Newest first.' }) },
  { $id: 'InvitationList' },
);

export const RevokedInvitationSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(InvitationSchema) },
  { $id: 'RevokedInvitation' },
);

export const ResentInvitationSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(InvitationSchema) },
  { $id: 'ResentInvitation' },
);

const AcceptedMembershipSchema = Type.Object(
  {
    organizationId: Type.String(),
    organizationName: Type.String(),
    role,
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export type AcceptedMembershipView = Static<typeof AcceptedMembershipSchema>;

export const AcceptedInvitationSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: AcceptedMembershipSchema },
  { $id: 'AcceptedInvitation' },
);

export const OrganizationParams = Type.Object({
  id: Type.String({ description: 'Organization identifier (UUID).' }),
});

export const OrganizationInvitationParams = Type.Object({
  id: Type.String({ description: 'Organization identifier (UUID).' }),
  invitationId: Type.String({ description: 'Invitation identifier (UUID).' }),
});

export const InvitationParams = Type.Object({
  invitationId: Type.String({ description: 'Invitation identifier (UUID), from the acceptUrl.' }),
});

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const invitationSharedSchemas = [
  InvitationSchema,
  CreatedInvitationSchema,
  InvitationListSchema,
  RevokedInvitationSchema,
  ResentInvitationSchema,
  AcceptedInvitationSchema,
];
