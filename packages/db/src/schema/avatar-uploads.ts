import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/** Avatars stored for a user. A profile may only point at an avatar URL recorded here for that user. */
export const avatarUploads = pgTable(
  'avatar_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull().unique(),
    url: text('url').notNull().unique(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('avatar_uploads_size_bytes_check', sql`${table.sizeBytes} > 0`)],
);

export type AvatarUpload = typeof avatarUploads.$inferSelect;
export type NewAvatarUpload = typeof avatarUploads.$inferInsert;
