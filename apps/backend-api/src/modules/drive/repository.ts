import {
  type ApiKeyOwner,
  type DatabaseExecutor,
  databaseErrorOf,
  type MailPlan,
  type MailSubscriptionStatus,
  type UnitOfWork,
} from '@platform/db';
import { driveFolders } from '@platform/db/schema/drive';
import { subscriptionPlanOf } from '@platform/mail-subscriptions';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';

// The queries of drive folders. Every folder query is scoped to its owner: the organization and environment of
// the API key (docs/decisions.md#folders-per-environment).

const ownedBy = ({ organizationId, environment }: ApiKeyOwner) =>
  and(eq(driveFolders.organizationId, organizationId), eq(driveFolders.environment, environment));

/**
 * Makes the creates of one organization and environment take turns until the unit's transaction ends, so a count
 * taken by a later statement cannot be raced past; in the same statement (docs/decisions.md#statements-per-request),
 * reads the plan of the organization's subscription when its status is one of `planStatuses`, and whether the
 * parent folder (when given) is the owner's. The count must come in a later statement: this one's snapshot was taken
 * before the lock was granted.
 */
export async function lockFolderCreates(
  work: UnitOfWork,
  owner: ApiKeyOwner,
  { parentId, planStatuses }: { parentId: string | null; planStatuses: readonly MailSubscriptionStatus[] },
): Promise<{ plan: MailPlan | undefined; parentFound: boolean }> {
  const lockName = `drive_folders:${owner.organizationId}:${owner.environment}`;
  const [row] = await work.query(
    sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0)) as locked,
      ${subscriptionPlanOf(owner.organizationId, planStatuses)} as plan,
      ${
        parentId === null
          ? sql`false`
          : sql`exists (select 1 from ${driveFolders}
              where ${driveFolders.id} = ${parentId}::uuid
                and ${driveFolders.organizationId} = ${owner.organizationId}::uuid
                and ${driveFolders.environment} = ${owner.environment}::text)`
      } as parent_found`,
  );
  const plan = row?.['plan'];
  return {
    plan: typeof plan === 'string' ? (plan as MailPlan) : undefined,
    parentFound: row?.['parent_found'] === true,
  };
}

/** Why a folder's insert wrote nothing. */
export type FolderRefusal = 'over-quota' | 'duplicate-name' | 'parent-missing';

/**
 * Adds to the unit the insert of a folder while the owner has fewer than `quota` folders, counted in the same
 * statement (after lockFolderCreates, so no concurrent create is counted twice or missed). When it writes nothing
 * the unit fails with `refusal(why)`: `over-quota` when the count had reached the quota, `duplicate-name` (the
 * sibling-name unique index), `parent-missing` (the parent key: the parent was deleted meanwhile).
 */
export function addFolderWithinQuota(
  work: UnitOfWork,
  owner: ApiKeyOwner,
  folder: { id: string; parentId: string | null; name: string; createdAt: Date },
  quota: number,
  refusal: (why: FolderRefusal) => Error,
): void {
  work.add({
    parts: [
      [
        'used',
        sql`select count(*) as folders from ${driveFolders}
          where ${driveFolders.organizationId} = ${owner.organizationId}::uuid
            and ${driveFolders.environment} = ${owner.environment}::text`,
      ],
      [
        'inserted',
        sql`insert into ${driveFolders} (id, organization_id, environment, parent_id, name, created_at)
          select ${folder.id}::uuid, ${owner.organizationId}::uuid, ${owner.environment}::text, ${folder.parentId}::uuid,
            ${folder.name}::text, ${folder.createdAt.toISOString()}::timestamptz
          from used
          where used.folders < ${quota}
          returning id`,
      ],
    ],
    required: { part: 'inserted', refusal: () => refusal('over-quota') },
    failed: (error) => {
      const failure = databaseErrorOf(error);
      if (failure?.code === '23505' && failure.constraint === 'drive_folders_sibling_name_unique') {
        return refusal('duplicate-name');
      }
      if (failure?.code === '23503' && failure.constraint === 'drive_folders_parent_fk') {
        return refusal('parent-missing');
      }
      return undefined;
    },
  });
}

export async function folderExists(db: DatabaseExecutor, owner: ApiKeyOwner, id: string): Promise<boolean> {
  const [folder] = await db
    .select({ id: driveFolders.id })
    .from(driveFolders)
    .where(and(eq(driveFolders.id, id), ownedBy(owner)));
  return folder !== undefined;
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
