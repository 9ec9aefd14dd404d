import { check, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { membershipRoles } from '../enums.js';
import { createdAt, isOneOf } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** Which users belong to which organizations, and in what role. */
export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: membershipRoles }).notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    // The primary key serves lookups by organization; this one serves "organizations of a user".
    index('memberships_user_id_idx').on(table.userId),
    check('memberships_role_check', isOneOf(table.role, membershipRoles)),
  ],
);

export type Membership = typeof memberships.$inferSelect;
export type NewMembership = typeof memberships.$inferInsert;
