import { type DatabaseHandle, unitOfWork } from '@platform/db';
import { users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKycStatus } from './repository.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');

describe("a user's KYC status", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(users).values([
      { id: 'user_verified', email: 'verified@example.com' },
      { id: 'user_other', email: 'other@example.com' },
    ]);
  });
  afterAll(async () => {
    await handle.close();
  });

  it("is written at the unit's commit, on that user alone", async () => {
    await unitOfWork(handle.db, async (work) => {
      addKycStatus(work, 'user_verified', 'verified', NOW);
    });
    const rows = await handle.db
      .select({ id: users.id, kycStatus: users.kycStatus, updatedAt: users.updatedAt })
      .from(users)
      .orderBy(users.id);
    expect(rows).toEqual([
      { id: 'user_other', kycStatus: 'unverified', updatedAt: expect.any(Date) },
      { id: 'user_verified', kycStatus: 'verified', updatedAt: NOW },
    ]);
  });

  it('writes nothing for an unknown user', async () => {
    await unitOfWork(handle.db, async (work) => {
      addKycStatus(work, 'user_unknown', 'rejected', NOW);
    });
    const [unknown] = await handle.db.select().from(users).where(eq(users.id, 'user_unknown'));
    expect(unknown).toBeUndefined();
  });
});
