import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { invitationStatuses, membershipRoles } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * An invitation to join an organization in a role, sent to an email address. It is accepted by the user whose
 * token carries that address (case-insensitive), at most once, before `expiresAt`.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: membershipRoles }).notNull(),
    status: text('status', { enum: invitationStatuses }).notNull().default('pending'),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** When it was accepted or revoked. */
    closedAt: timestamptz('closed_at'),
  },
  (table) => [
    // One pending invitation per address and organization: a second is a 409, however many arrive at once.
    uniqueIndex('organization_invitations_one_pending_idx')
      .on(table.organizationId, sql`lower(${table.email})`)
      .where(sql`${table.status} = 'pending'`),
    // Serves "the organization's invitations, newest first".
    index('organization_invitations_organization_id_created_at_idx').on(table.organizationId, table.createdAt),
    check('organization_invitations_role_check', isOneOf(table.role, membershipRoles)),
    check('organization_invitations_status_check', isOneOf(table.status, invitationStatuses)),
  ],
);

export type OrganizationInvitation = typeof organizationInvitations.$inferSelect;
export type NewOrganizationInvitation = typeof organizationInvitations.$inferInsert;
