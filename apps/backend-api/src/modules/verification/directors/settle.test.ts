import { unitOfWork, type VerificationStatus } from '@platform/db';
import { verificationSessions } from '@platform/db/schema';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from '../../../../test/app-fixtures.js';
import { temporaryVault } from '../../../../test/document-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../../test/verification-fixtures.js';
import { listSessionChecks } from '../checks/index.js';
import { readAnySession } from '../service.js';
import { addDirectorSessions } from './director-sessions.js';
import { type DirectorSettlementOptions, settleDirectors } from './settle.js';

describe("settling a business's directors", () => {
  const suite = useTestApp();
  let acme: TestOrganization;
  let vault: Awaited<ReturnType<typeof temporaryVault>>;
  let decided: string[];

  beforeAll(async () => {
    vault = await temporaryVault();
  });
  afterAll(async () => {
    await vault.remove();
  });
  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    decided = [];
  });

  const options = (): DirectorSettlementOptions => ({
    db: suite.db,
    vault: vault.vault,
    now: () => TEST_START,
    decide: async (_tx, parent) => {
      decided.push(parent.id);
    },
  });

  /** A business submitted for a decision, with `count` directors' sessions. */
  async function businessWithDirectors(count: number): Promise<{ parentId: string; directorIds: string[] }> {
    const parentId = await createdSessionId(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'business-1' });
    await suite.db
      .update(verificationSessions)
      .set({ status: 'processing', submittedAt: TEST_START })
      .where(eq(verificationSessions.id, parentId));
    const parent = await readAnySession(suite.db, parentId);
    if (parent === undefined) throw new Error('no parent');
    const directorIds = await unitOfWork(suite.db, async (work) =>
      addDirectorSessions(work, parent, count, {
        decisionSource: 'manual',
        ttlMs: 60_000,
        now: TEST_START,
        lifecycle: {},
      }),
    );
    return { parentId, directorIds };
  }

  const endDirectors = (ids: string[], status: VerificationStatus) =>
    suite.db.update(verificationSessions).set({ status }).where(inArray(verificationSessions.id, ids));

  const settle = () => settleDirectors(options(), { batchSize: 10, skip: new Set() });

  it('waits while a director is still verifying, then records the check once and tells the decision source', async () => {
    const { parentId, directorIds } = await businessWithDirectors(2);
    await endDirectors(directorIds.slice(0, 1), 'verified');
    expect(await settle()).toBe(0);
    expect(await listSessionChecks(suite.db, parentId)).toEqual([]);

    await endDirectors(directorIds.slice(1), 'verified');
    expect(await settle()).toBe(1);
    expect(await settle()).toBe(0);
    const checks = await listSessionChecks(suite.db, parentId);
    expect(checks.map(({ kind, source, outcome, submittedAt }) => ({ kind, source, outcome, submittedAt }))).toEqual([
      { kind: 'directors', source: 'service', outcome: 'passed', submittedAt: TEST_START },
    ]);
    expect(decided).toEqual([parentId]);
  });

  it('records a failed check when a director did not verify', async () => {
    const { parentId, directorIds } = await businessWithDirectors(2);
    await endDirectors(directorIds.slice(0, 1), 'verified');
    await endDirectors(directorIds.slice(1), 'expired');
    expect(await settle()).toBe(1);
    expect((await listSessionChecks(suite.db, parentId)).map((check) => check.outcome)).toEqual(['failed']);
  });

  it('settles each business once when several instances run at the same time', async () => {
    const businesses = await Promise.all([
      businessWithDirectors(1),
      businessWithDirectors(1),
      businessWithDirectors(1),
    ]);
    await endDirectors(
      businesses.flatMap((business) => business.directorIds),
      'verified',
    );
    await Promise.all([settle(), settle(), settle(), settle()]);
    expect([...decided].sort()).toEqual(businesses.map((business) => business.parentId).sort());
    for (const { parentId } of businesses) expect(await listSessionChecks(suite.db, parentId)).toHaveLength(1);
  });
});
