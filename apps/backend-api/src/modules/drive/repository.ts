import {
  type ApiKeyOwner,
  type DatabaseExecutor,
  type DriveFolder,
  databaseErrorOf,
  type MailPlan,
  type MailSubscriptionStatus,
} from '@platform/db';
import { driveFolders, mailSubscriptions } from '@platform/db/schema';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';

// The queries of drive folders. Every folder query is scoped to its owner: the organization and environment of
// the API key (docs/decisions.md#folders-per-environment).

const ownedBy = ({ organizationId, environment }: ApiKeyOwner) =>
  and(eq(driveFolders.organizationId, organizationId), eq(driveFolders.environment, environment));

/**
 * Makes the creates of one organization and environment take turns until the caller's transaction ends, so a
 * count taken after it cannot be raced past.
 */
export async function lockFolderCreates(tx: DatabaseExecutor, owner: ApiKeyOwner): Promise<void> {
  const lockName = `drive_folders:${owner.organizationId}:${owner.environment}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`);
}

/** The plan of the organization's subscription when its status is one of `statuses`. */
export async function findSubscribedMailPlan(
  db: DatabaseExecutor,
  organizationId: string,
  statuses: MailSubscriptionStatus[],
): Promise<MailPlan | undefined> {
  const [subscription] = await db
    .select({ plan: mailSubscriptions.plan })
    .from(mailSubscriptions)
    .where(and(eq(mailSubscriptions.organizationId, organizationId), inArray(mailSubscriptions.status, statuses)));
  return subscription?.plan;
}

export function countFolders(db: DatabaseExecutor, owner: ApiKeyOwner): Promise<number> {
  return db.$count(driveFolders, ownedBy(owner));
}

export async function folderExists(db: DatabaseExecutor, owner: ApiKeyOwner, id: string): Promise<boolean> {
  const [folder] = await db
    .select({ id: driveFolders.id })
    .from(driveFolders)
    .where(and(eq(driveFolders.id, id), ownedBy(owner)));
  return folder !== undefined;
}

/**
 * Inserts a folder; what the constraints refuse comes back as a reason, not an error: `duplicate-name` (the
 * sibling-name unique index) or `parent-missing` (the parent key: the parent was deleted meanwhile).
 */
export async function insertFolder(
  tx: DatabaseExecutor,
  owner: ApiKeyOwner,
  values: { parentId: string | null; name: string; createdAt: Date },
): Promise<DriveFolder | 'duplicate-name' | 'parent-missing'> {
  try {
    const [folder] = await tx
      .insert(driveFolders)
      .values({ ...owner, ...values })
      .returning();
    if (folder === undefined) throw new Error('The folder insert returned no row');
    return folder;
  } catch (error) {
    const failure = databaseErrorOf(error);
    if (failure?.code === '23505' && failure.constraint === 'drive_folders_sibling_name_unique') {
      return 'duplicate-name';
    }
    if (failure?.code === '23503') return 'parent-missing';
    throw error;
  }
}

export interface FolderListQuery {
  /** A folder id for its children, null for the top-level folders, undefined for all folders. */
  parentId: string | null | undefined;
  /** Only the folders after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/** Up to `limit` folders newest first, each with its position for the next page's cursor. */
export function listFolderRows(
  db: DatabaseExecutor,
  owner: ApiKeyOwner,
  { parentId, after, limit }: FolderListQuery,
): Promise<Array<{ id: string; name: string; parentId: string | null; createdAt: Date; position: string }>> {
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
  if (parentId === null) conditions.push(isNull(driveFolders.parentId));
  else if (parentId !== undefined) conditions.push(eq(driveFolders.parentId, parentId));
  if (after !== undefined) conditions.push(afterPosition(driveFolders, after));
  return db
    .select({
      id: driveFolders.id,
      name: driveFolders.name,
      parentId: driveFolders.parentId,
      createdAt: driveFolders.createdAt,
      position: cursorTimeOf(driveFolders.createdAt),
    })
    .from(driveFolders)
    .where(and(...conditions))
    .orderBy(desc(driveFolders.createdAt), desc(driveFolders.id))
    .limit(limit);
}

/**
 * Deletes the owner's folder if nothing is inside it: `deleted`, `not-empty` (a folder created inside it meanwhile:
 * the parent key refused) or `not-deleted` (unknown, another owner's, or with folders inside).
 */
export async function deleteEmptyFolder(
  tx: DatabaseExecutor,
  owner: ApiKeyOwner,
  id: string,
): Promise<'deleted' | 'not-empty' | 'not-deleted'> {
  try {
    const deleted = await tx
      .delete(driveFolders)
      .where(
        and(
          eq(driveFolders.id, id),
          ownedBy(owner),
          sql`not exists (select 1 from ${driveFolders} as child where child.parent_id = ${driveFolders.id})`,
        ),
      )
      .returning({ id: driveFolders.id });
    return deleted.length > 0 ? 'deleted' : 'not-deleted';
  } catch (error) {
    if (databaseErrorOf(error)?.code === '23503') return 'not-empty';
    throw error;
  }
}
