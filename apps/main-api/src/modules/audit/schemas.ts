import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

const DEFAULT_PAGE_SIZE = 20;

export const OrganizationIdParams = Type.Object({
  id: Type.String({ description: 'Organization identifier (UUID).' }),
});

export const ListAuditEventsQuery = Type.Object(
  {
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only events of this action, exactly (for example `api_key.revoked`).',
        examples: ['api_key.created'],
      }),
    ),
    from: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only events at or after this time (ISO 8601 with a time zone, e.g. 2026-03-01T00:00:00Z).',
      }),
    ),
    to: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only events before this time (ISO 8601 with a time zone); not before `from`.',
      }),
    ),
  },
  { additionalProperties: false },
);

const AuditEventSchema = Type.Object(
  {
    id: Type.String({ description: 'Event identifier (UUID).' }),
    action: Type.String({ description: '`<object>.<verb>`, for example `member.role_changed` or `api_key.revoked`.' }),
    actorUserId: Type.Union([Type.String(), Type.Null()], {
      description: "The user who made the change; null for the platform's own jobs (renewals, payment settlement).",
    }),
    targetType: Type.String({ description: 'What changed: `api_key`, `webhook_endpoint`, `payment`, ...' }),
    targetId: Type.String({ description: 'Its identifier (an id, a payment reference, an environment).' }),
    requestId: Type.Union([Type.String(), Type.Null()], { description: 'The request that made it (x-request-id).' }),
    ip: Type.Union([Type.String(), Type.Null()], { description: 'The client IP of that request.' }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What changed (before and after, an amount, an environment); never a secret.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'AuditEvent', additionalProperties: false },
);

export type AuditEventView = Static<typeof AuditEventSchema>;

export const AuditEventListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        auditEvents: Type.Array(ref(AuditEventSchema), { description: 'Newest first.' }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'AuditEventList', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const auditSharedSchemas = [AuditEventSchema, AuditEventListSchema];
