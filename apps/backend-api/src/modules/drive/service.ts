import { randomUUID } from 'node:crypto';
import type { ApiKeyOwner, DatabaseExecutor, DriveFolder, MailSubscriptionStatus, UnitOfWork } from '@platform/db';
import { conflict, notFound, quotaExceeded } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import { type FolderQuotas, type FolderQuotaTier, folderQuotaMessage } from './quota.js';
import {
  addFolderWithinQuota,
  deleteEmptyFolder,
  type FolderRefusal,
  folderExists,
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
}

/**
 * Creates a folder in `work`: creates of one organization and environment take turns on a transaction-scoped
 * advisory lock, so the quota count cannot be raced past; duplicate names are refused by the sibling-name unique
 * index, so they cannot be raced past either.
 *
 * Two statements (docs/decisions.md#statements-per-request): the lock with the plan and the parent, sent at once,
 * then the count and the insert, at the unit's commit with its other writes (the stored answer), which must see
 * what creates before it committed.
 */
export async function createFolder(
  work: UnitOfWork,
  owner: ApiKeyOwner,
  input: CreateFolderInput,
): Promise<DriveFolderView> {
  const { plan, parentFound } = await lockFolderCreates(work, owner, {
    parentId: input.parentId,
    planStatuses: planGrantingStatuses,
  });
  if (input.parentId !== null && !parentFound) throw notFound(PARENT_NOT_FOUND);

  // The tier that sets the quota: the mail plan while the subscription is current, else none.
  const tier: FolderQuotaTier = plan ?? 'none';
  const folder = toView({ id: randomUUID(), name: input.name, parentId: input.parentId, createdAt: input.now });
  const refusal = (why: FolderRefusal) => {
    if (why === 'over-quota') return quotaExceeded(folderQuotaMessage(tier, input.quotas));
    if (why === 'duplicate-name') {
      return conflict(
        `A folder named "${input.name}" already exists ${input.parentId === null ? 'at the top level' : 'in this folder'}`,
      );
    }
    // The parent was deleted after the check above.
    return notFound(PARENT_NOT_FOUND);
  };
  addFolderWithinQuota(work, owner, { ...folder, createdAt: input.now }, input.quotas[tier], refusal);
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
