import { membershipRoles } from '@platform/db';
import { nullable, singleLineName } from '@platform/http';
import { Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import {
  BILLING_EMAIL_MAX_LENGTH,
  KRA_PIN_INPUT_PATTERN,
  ORGANIZATION_ADDRESS_MAX_LENGTH,
  ORGANIZATION_ADDRESS_MAX_LINES,
  ORGANIZATION_NAME_MAX_LENGTH,
} from './organization-fields.js';

const role = Type.Union(
  membershipRoles.map((value) => Type.Literal(value)),
  { description: 'owner, admin, developer, billing or member (read-only); see docs/decisions.md#roles.' },
);

const name = singleLineName({
  description: `1-${ORGANIZATION_NAME_MAX_LENGTH} characters after trimming, on one line.`,
  examples: ['Wanjiku Ventures'],
});

const kraPin = Type.String({
  pattern: KRA_PIN_INPUT_PATTERN,
  'x-allowed': 'a KRA PIN: a letter, nine digits and a letter (P051234567Q)',
  description: 'The KRA PIN: a letter, nine digits and a letter, in any case; stored upper case.',
  examples: ['P051234567Q'],
});

const address = Type.String({
  // The service counts characters and lines after trimming; this bounds what is read.
  maxLength: ORGANIZATION_ADDRESS_MAX_LENGTH * 2,
  description:
    `Where the organization is, as its invoices should print it: up to ${ORGANIZATION_ADDRESS_MAX_LINES} lines ` +
    `(separated by line breaks), 1-${ORGANIZATION_ADDRESS_MAX_LENGTH} characters after trimming each line.`,
  examples: ['Kilimani Business Centre, 3rd floor\nArgwings Kodhek Road\nP.O. Box 12345-00100\nNairobi'],
});

const billingEmail = Type.String({
  maxLength: BILLING_EMAIL_MAX_LENGTH * 2,
  description:
    `Where billing mail (receipts, invoices, reminders) should go besides the owners: an email address, at most ` +
    `${BILLING_EMAIL_MAX_LENGTH} characters after trimming.`,
  examples: ['accounts@wanjiku.co.ke'],
});

/** POST /v1/organizations. Unknown fields are refused. */
export const CreateOrganizationBodySchema = Type.Object(
  {
    name,
    kraPin: Type.Optional(kraPin),
    address: Type.Optional(address),
    billingEmail: Type.Optional(billingEmail),
  },
  { additionalProperties: false },
);

/** PATCH /v1/organizations/:id: at least one field; null clears an optional one. */
export const UpdateOrganizationBodySchema = Type.Object(
  {
    name: Type.Optional(name),
    kraPin: Type.Optional(Type.Union([kraPin, Type.Null()])),
    address: Type.Optional(Type.Union([address, Type.Null()])),
    billingEmail: Type.Optional(Type.Union([billingEmail, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const VerificationRetentionBodySchema = Type.Object(
  {
    days: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "Days after a session's final status until its documents and details are erased, within the platform's " +
        "bounds (VERIFICATION_RETENTION_MIN_DAYS to _MAX_DAYS); null: the platform's default.",
      examples: [2555, null],
    }),
  },
  { additionalProperties: false, examples: [{ days: 2555 }] },
);

const VerificationRetentionSchema = Type.Object(
  {
    days: Type.Union([Type.Integer(), Type.Null()], {
      description: "The organization's own period; null: the default.",
    }),
    effectiveDays: Type.Integer({ description: 'The period that applies.' }),
    defaultDays: Type.Integer(),
    minDays: Type.Integer(),
    maxDays: Type.Integer(),
  },
  {
    $id: 'VerificationRetention',
    examples: [{ days: 2555, effectiveDays: 2555, defaultDays: 30, minDays: 7, maxDays: 2555 }],
  },
);

export const VerificationRetentionResponseSchema = Type.Object(
  { success: Type.Literal(true), message: Type.Optional(Type.String()), data: ref(VerificationRetentionSchema) },
  { $id: 'VerificationRetentionResponse' },
);

export const OrganizationParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
});

export const MemberParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
  userId: Type.String({ minLength: 1, description: "The member's user id (the token subject)." }),
});

export const ChangeMemberRoleBodySchema = Type.Object({ role }, { additionalProperties: false });

/** An organization as one of its members sees it. */
const OrganizationSchema = Type.Object(
  {
    id: Type.String({ description: 'Organization identifier (UUID).' }),
    name: Type.String(),
    kraPin: Type.Union([Type.String(), Type.Null()], { description: 'The KRA PIN, upper case; null when not set.' }),
    address: nullable(Type.String(), { description: 'The address, its lines separated by `\\n`; null when not set.' }),
    billingEmail: nullable(Type.String(), { description: 'Where billing mail should go; null when not set.' }),
    role: Type.Union(
      membershipRoles.map((value) => Type.Literal(value)),
      { description: "The caller's role in the organization." },
    ),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Organization', additionalProperties: false },
);

export const OrganizationResponseSchema = Type.Object(
  { success: Type.Literal(true), message: Type.Optional(Type.String()), data: ref(OrganizationSchema) },
  { $id: 'OrganizationResponse' },
);

export const OrganizationListSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(ref(OrganizationSchema), { description: 'Newest first.' }) },
  { $id: 'OrganizationList' },
);

export const OrganizationRemovalSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({
      id: Type.String(),
      deleted: Type.Boolean({
        description: 'True: deleted with everything it owned. False: it had money history and was retired.',
      }),
      retiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  },
  { $id: 'OrganizationRemoval' },
);

const MemberSchema = Type.Object(
  {
    userId: Type.String(),
    email: Type.String(),
    firstName: Type.Union([Type.String(), Type.Null()]),
    lastName: Type.Union([Type.String(), Type.Null()]),
    role,
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationMember', additionalProperties: false },
);

export const MemberListSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(ref(MemberSchema), { description: 'First joined first.' }) },
  { $id: 'OrganizationMemberList' },
);

export const MemberResponseSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(MemberSchema) },
  { $id: 'OrganizationMemberResponse' },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const organizationSharedSchemas = [
  OrganizationSchema,
  OrganizationResponseSchema,
  OrganizationListSchema,
  OrganizationRemovalSchema,
  VerificationRetentionSchema,
  VerificationRetentionResponseSchema,
  MemberSchema,
  MemberListSchema,
  MemberResponseSchema,
];
