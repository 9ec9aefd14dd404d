import type { Database, Transaction, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { recordChecks } from '../checks/index.js';
import { workThroughDueSessions } from '../due-sessions.js';
import { listDirectorSessions } from '../repository.js';
import { readAnySession } from '../service.js';
import { directorsCheckOf } from './directors-check.js';
import { claimSettledParent, hasDirectorsCheck } from './repository.js';

// When the last director's own session ends, the business's `directors` check is made and its decision source is
// told (docs/decisions.md#directors). A job rather than a hook on the director's decision: a director may be
// decided by a reviewer in main-api, by Smile ID here or by expiry, and the job finds them all the same way.

export interface DirectorSettlementOptions {
  db: Database;
  vault: DocumentVault;
  now: () => Date;
  /** What the business's decision source does once its `directors` check is recorded, in the same transaction. */
  decide(tx: Transaction, parent: VerificationSession): Promise<void>;
  logger?: { error(details: object, message: string): void } | undefined;
}

/** Settles at most `batchSize` businesses whose directors have all ended; returns how many. */
export function settleDirectors(
  options: DirectorSettlementOptions,
  { batchSize, skip }: { batchSize: number; skip: Set<string> },
): Promise<number> {
  return workThroughDueSessions(options.db, {
    batchSize,
    skip,
    claim: (tx, passOver) => claimSettledParent(tx, passOver),
    work: async (tx, parentId) => {
      const parent = await readAnySession(tx, parentId);
      if (parent?.submittedAt === null || parent === undefined) return;
      // The claim's snapshot may predate another instance's commit of the same check (it locked no row of the
      // session, so the lock was free again): asked again now, under the lock, in a statement that sees that commit.
      if (await hasDirectorsCheck(tx, parent.id, parent.submittedAt)) return;
      const check = directorsCheckOf(await listDirectorSessions(tx, parentId), 'service');
      if (check === undefined) return;
      await recordChecks(tx, options.vault, parent, parent.submittedAt, [check], options.now());
      await options.decide(tx, parent);
    },
    onFailed: (error, sessionId) =>
      options.logger?.error({ err: error, sessionId }, "Could not settle a business's directors; passing over it"),
  });
}
