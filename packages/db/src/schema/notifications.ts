import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { notificationTypes } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** In-app notifications. A notification is read when `readAt` is set. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The user keeps the notification even if the organization it was about goes away.
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    type: text('type', { enum: notificationTypes }).notNull(),
    actionUrl: text('action_url'),
    readAt: timestamptz('read_at'),
    createdAt: createdAt(),
  },
  (table) => [
    // Serves "newest first" listing with a stable order for equal timestamps. NULLS FIRST is what a plain
    // `order by created_at desc, id desc` means, so the planner can read the index in order.
    index('notifications_user_id_created_at_id_idx').on(
      table.userId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // Serves the unread count and "mark all read" without scanning read notifications.
    index('notifications_user_id_unread_idx').on(table.userId).where(sql`${table.readAt} is null`),
    check('notifications_type_check', isOneOf(table.type, notificationTypes)),
  ],
);

export type Notification = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;
