import { randomUUID } from 'node:crypto';
import type { ApiKeyOwner, DatabaseExecutor, DriveFolder, MailSubscriptionStatus, RidingStatement } from '@platform/db';
import { conflict, notFound, quotaExceeded } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import { type FolderQuotas, type FolderQuotaTier, folderQuotaMessage } from './quota.js';
import {
  deleteEmptyFolder,
  folderExists,
  insertFolderWithinQuota,
  listFolderRows,
  lockFolderCreates,
} from './repository.js';
import type { DriveFolderView } from './schemas.js';

// Folders belong to an organization and an environment: the API key's owner.

const PARENT_NOT_FOUND = 'Parent folder not found';
const FOLDER_NOT_FOUND = 'Folder not found';

// Subscriptions in these states still grant their plan.
const planGrantingStatuses: MailSubscriptionStatus[] = ['active', 'past_due'];

export interface CreateFolderInput {
  /** Already normalised (normaliseFolderName). */
  name: string;
  parentId: string | null;
  now: Date;
  quotas: FolderQuotas;
  /**
   * Statements to send inside the insert (riders: docs/decisions.md#statements-per-request), built from the new
   * folder: the stored idempotent answer.
   */
  alongside?: (folder: DriveFolderView) => readonly RidingStatement[];
}

/**
 * Creates a folder. Run it in a transaction: creates of one organization and environment take turns on a
 * transaction-scoped advisory lock, so the quota count cannot be raced past; duplicate names are refused by
 * the sibling-name unique index, so they cannot be raced past either.
 *
 * Two statements (docs/decisions.md#statements-per-request): the lock with the plan and the parent, then the count and
 * the insert (with `input.alongside`), which must see what creates before it committed.
 */
export async function createFolder(
  tx: DatabaseExecutor,
  owner: ApiKeyOwner,
  input: CreateFolderInput,
): Promise<DriveFolderView> {
  const { plan, parentFound } = await lockFolderCreates(tx, owner, {
    parentId: input.parentId,
    planStatuses: planGrantingStatuses,
  });
  if (input.parentId !== null && !parentFound) throw notFound(PARENT_NOT_FOUND);

  // The tier that sets the quota: the mail plan while the subscription is current, else none.
  const tier: FolderQuotaTier = plan ?? 'none';
  const folder = toView({ id: randomUUID(), name: input.name, parentId: input.parentId, createdAt: input.now });
  const outcome = await insertFolderWithinQuota(
    tx,
    owner,
    { ...folder, createdAt: input.now },
    input.quotas[tier],
    input.alongside?.(folder) ?? [],
  );
  if (outcome === 'over-quota') throw quotaExceeded(folderQuotaMessage(tier, input.quotas));
  if (outcome === 'duplicate-name') {
    throw conflict(
      `A folder named "${input.name}" already exists ${input.parentId === null ? 'at the top level' : 'in this folder'}`,
    );
  }
  // The parent was deleted after the check above.
  if (outcome === 'parent-missing') throw notFound(PARENT_NOT_FOUND);
  return folder;
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
  owner: ApiKeyOwner,
  { parentId, limit, cursor }: ListFoldersInput,
): Promise<{ folders: DriveFolderView[]; nextCursor: string | null }> {
  if (parentId !== undefined && parentId !== 'root' && !(await folderExists(db, owner, parentId))) {
    throw notFound(PARENT_NOT_FOUND);
  }
  const rows = await listFolderRows(db, owner, {
    parentId: parentId === 'root' ? null : parentId,
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.id }));
  return { folders: page.map(toView), nextCursor };
}

/**
 * Deletes an empty folder. Unknown ids and other organizations' or environments' folders get the same 404;
 * a folder with folders inside gets 409 (also when one is created while this runs: the parent key refuses).
 */
export async function deleteFolder(tx: DatabaseExecutor, owner: ApiKeyOwner, id: string): Promise<void> {
  const outcome = await deleteEmptyFolder(tx, owner, id);
  if (outcome === 'deleted') return;
  if (outcome === 'not-empty') throw notEmpty();
  throw (await folderExists(tx, owner, id)) ? notEmpty() : notFound(FOLDER_NOT_FOUND);
}

const notEmpty = () => conflict('Folder is not empty: delete the folders inside it first');

function toView(row: Pick<DriveFolder, 'id' | 'name' | 'parentId' | 'createdAt'>): DriveFolderView {
  return { id: row.id, name: row.name, parentId: row.parentId, createdAt: row.createdAt.toISOString() };
}
