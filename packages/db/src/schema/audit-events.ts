import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Who changed what in an organization (docs/decisions.md#audit-log). Append-only at the database level, like the
 * ledger (migration 0011): rows are never updated or deleted. No foreign keys, so the record outlives the
 * organization, the actor and the target it names. `details` never holds a secret.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id').notNull(),
    /** The user who made the change; null for the platform's own jobs (renewals, say). */
    actorUserId: text('actor_user_id'),
    /** `<object>.<verb>`, for example `member.role_changed` or `api_key.revoked`. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    requestId: text('request_id'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    // Serves the organization's events newest first, and filtering them by time.
    index('audit_events_organization_id_created_at_id_idx').on(
      table.organizationId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
  ],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;
