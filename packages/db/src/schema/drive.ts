import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments } from '../enums.js';
import { createdAt, isOneOf } from './columns.js';
import { organizations } from './organizations.js';

/** Stands in for "no parent" in the sibling-name index, so top-level names are unique too. */
const ROOT = sql.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);

/**
 * Drive folders of an organization, one tree per environment (a test key never sees live folders).
 * A folder's parent belongs to the same organization and environment (composite foreign key), and a
 * folder with children cannot be deleted (the same key, no cascade).
 */
export const driveFolders = pgTable(
  'drive_folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    /** null for a top-level folder. */
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // Target of the parent key: the parent must match on organization and environment, not only on id.
    unique('drive_folders_id_organization_id_environment_unique').on(table.id, table.organizationId, table.environment),
    foreignKey({
      name: 'drive_folders_parent_fk',
      columns: [table.parentId, table.organizationId, table.environment],
      foreignColumns: [table.id, table.organizationId, table.environment],
    }),
    // Names are unique among siblings, ignoring case; concurrent creates cannot both win.
    uniqueIndex('drive_folders_sibling_name_unique').on(
      table.organizationId,
      table.environment,
      sql`coalesce(${table.parentId}, ${ROOT})`,
      sql`lower(${table.name})`,
    ),
    // Newest-first listing of all folders, and the quota count.
    index('drive_folders_listing_idx').on(
      table.organizationId,
      table.environment,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // Newest-first listing of a folder's children; also the "is it empty" check and the parent key's lookups.
    index('drive_folders_parent_listing_idx').on(
      table.parentId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    check('drive_folders_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    // The service trims and validates names first; these keep any other writer honest.
    check(
      'drive_folders_name_check',
      sql`char_length(${table.name}) between 1 and 255 and strpos(${table.name}, '/') = 0 and ${table.name} !~ '[\\u0001-\\u001f\\u007f-\\u009f]'`,
    ),
  ],
);

export type DriveFolder = typeof driveFolders.$inferSelect;
export type NewDriveFolder = typeof driveFolders.$inferInsert;
