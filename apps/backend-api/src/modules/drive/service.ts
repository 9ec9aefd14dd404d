import type { ApiKeyEnvironment, DatabaseExecutor, MailSubscriptionStatus } from '@platform/db';
import { driveFolders, mailSubscriptions } from '@platform/db/schema';
import { conflict, notFound, quotaExceeded } from '@platform/errors';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { decodeCursor, pageOf } from '../../shared/pagination.js';
import { afterPosition, cursorTimeOf } from '../../shared/pagination-repository.js';
import { type FolderQuotas, type FolderQuotaTier, folderQuotaMessage } from './quota.js';
import type { DriveFolderView } from './schemas.js';

/** Folders belong to an organization and an environment: the API key's. */
export interface FolderOwner {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

const PARENT_NOT_FOUND = 'Parent folder not found';
const FOLDER_NOT_FOUND = 'Folder not found';

// Subscriptions in these states still grant their plan.
const planGrantingStatuses: MailSubscriptionStatus[] = ['active', 'past_due'];

const ownedBy = ({ organizationId, environment }: FolderOwner) =>
  and(eq(driveFolders.organizationId, organizationId), eq(driveFolders.environment, environment));

/** The tier that sets the organization's folder quota: its mail plan while the subscription is current, else none. */
async function folderQuotaTier(db: DatabaseExecutor, organizationId: string): Promise<FolderQuotaTier> {
  const [subscription] = await db
    .select({ plan: mailSubscriptions.plan })
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.organizationId, organizationId),
        inArray(mailSubscriptions.status, planGrantingStatuses),
      ),
    );
  return subscription?.plan ?? 'none';
}

export interface CreateFolderInput {
  /** Already normalised (normaliseFolderName). */
  name: string;
  parentId: string | null;
  now: Date;
  quotas: FolderQuotas;
}

/**
 * Creates a folder. Run it in a transaction: creates of one organization and environment take turns on a
 * transaction-scoped advisory lock, so the quota count cannot be raced past; duplicate names are refused by
 * the sibling-name unique index, so they cannot be raced past either.
 */
export async function createFolder(
  tx: DatabaseExecutor,
  owner: FolderOwner,
  input: CreateFolderInput,
): Promise<DriveFolderView> {
  const lockName = `drive_folders:${owner.organizationId}:${owner.environment}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`);

  if (input.parentId !== null && !(await folderExists(tx, owner, input.parentId))) throw notFound(PARENT_NOT_FOUND);

  const tier = await folderQuotaTier(tx, owner.organizationId);
  const used = await tx.$count(driveFolders, ownedBy(owner));
  if (used >= input.quotas[tier]) throw quotaExceeded(folderQuotaMessage(tier, input.quotas));

  try {
    const [folder] = await tx
      .insert(driveFolders)
      .values({ ...owner, parentId: input.parentId, name: input.name, createdAt: input.now })
      .returning();
    if (folder === undefined) throw new Error('The folder insert returned no row');
    return toView(folder);
  } catch (error) {
    const failure = databaseErrorOf(error);
    if (failure?.code === '23505' && failure.constraint === 'drive_folders_sibling_name_unique') {
      throw conflict(
        `A folder named "${input.name}" already exists ${input.parentId === null ? 'at the top level' : 'in this folder'}`,
      );
    }
    // The parent was deleted after the check above.
    if (failure?.code === '23503') throw notFound(PARENT_NOT_FOUND);
    throw error;
  }
}

export interface ListFoldersInput {
  /** A folder id for its children, `root` for the top-level folders, undefined for all folders. */
  parentId: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/** A page of folders, newest first, with the cursor of the next page (null on the last one). */
export async function listFolders(
  db: DatabaseExecutor,
  owner: FolderOwner,
  { parentId, limit, cursor }: ListFoldersInput,
): Promise<{ folders: DriveFolderView[]; nextCursor: string | null }> {
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
  if (parentId === 'root') conditions.push(isNull(driveFolders.parentId));
  else if (parentId !== undefined) {
    if (!(await folderExists(db, owner, parentId))) throw notFound(PARENT_NOT_FOUND);
    conditions.push(eq(driveFolders.parentId, parentId));
  }
  if (cursor !== undefined) conditions.push(afterPosition(driveFolders, decodeCursor(cursor)));

  const rows = await db
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
    .limit(limit + 1);

  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.id }));
  return { folders: page.map(toView), nextCursor };
}

/**
 * Deletes an empty folder. Unknown ids and other organizations' or environments' folders get the same 404;
 * a folder with folders inside gets 409 (also when one is created while this runs: the parent key refuses).
 */
export async function deleteFolder(tx: DatabaseExecutor, owner: FolderOwner, id: string): Promise<void> {
  let deleted: Array<{ id: string }>;
  try {
    deleted = await tx
      .delete(driveFolders)
      .where(
        and(
          eq(driveFolders.id, id),
          ownedBy(owner),
          sql`not exists (select 1 from ${driveFolders} as child where child.parent_id = ${driveFolders.id})`,
        ),
      )
      .returning({ id: driveFolders.id });
  } catch (error) {
    if (databaseErrorOf(error)?.code === '23503') throw notEmpty();
    throw error;
  }
  if (deleted.length > 0) return;
  throw (await folderExists(tx, owner, id)) ? notEmpty() : notFound(FOLDER_NOT_FOUND);
}

const notEmpty = () => conflict('Folder is not empty: delete the folders inside it first');

async function folderExists(db: DatabaseExecutor, owner: FolderOwner, id: string): Promise<boolean> {
  const [folder] = await db
    .select({ id: driveFolders.id })
    .from(driveFolders)
    .where(and(eq(driveFolders.id, id), ownedBy(owner)));
  return folder !== undefined;
}

function toView(row: { id: string; name: string; parentId: string | null; createdAt: Date }): DriveFolderView {
  return { id: row.id, name: row.name, parentId: row.parentId, createdAt: row.createdAt.toISOString() };
}

/** The PostgreSQL error behind drizzle's wrapper, on either driver. */
function databaseErrorOf(error: unknown): { code?: string; constraint?: string } | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause ?? error;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, constraint, constraint_name } = cause as {
    code?: unknown;
    constraint?: unknown;
    constraint_name?: unknown;
  };
  const name =
    typeof constraint === 'string' ? constraint : typeof constraint_name === 'string' ? constraint_name : undefined;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(name === undefined ? {} : { constraint: name }),
  };
}
