import { type DatabaseHandle, queryRows } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClaim } from './repository.js';

// A claim commits without waiting for its WAL flush, and only the claim's own transaction does
// (docs/decisions.md#an-idempotency-claim-commits-without-a-flush).

const lockedAt = new Date('2026-03-02T09:00:00.000Z');
const expiresAt = new Date('2026-03-03T09:00:00.000Z');
const claimOf = (key: string) => ({ scope: 'api_key:1', key, fingerprint: 'POST /v1/things aaa', lockedAt });

describe('the claim statement', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    // One connection, so the statement after a claim runs where the claim ran.
    handle = await createTestDatabase({ maxConnections: 1 });
    // Records the setting each claim's row is written under.
    await handle.db.execute(sql`create table claim_commit_modes (key text, mode text)`);
    await handle.db.execute(sql`
      create function record_claim_commit_mode() returns trigger language plpgsql as $$
        begin
          insert into claim_commit_modes values (new.key, current_setting('synchronous_commit'));
          return new;
        end $$`);
    await handle.db.execute(sql`
      create trigger record_claim_commit_mode before insert on idempotency_records
        for each row execute function record_claim_commit_mode()`);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('writes the claim with synchronous_commit off, and the next statement on the connection has it on again', async () => {
    expect(await insertClaim(handle.db, claimOf('first'), expiresAt)).toBe(true);
    expect(await insertClaim(handle.db, claimOf('second'), expiresAt)).toBe(true);
    const modes = await queryRows<{ key: string; mode: string }>(
      handle.db,
      sql`select key, mode from claim_commit_modes order by key`,
    );
    expect(modes).toEqual([
      { key: 'first', mode: 'off' },
      { key: 'second', mode: 'off' },
    ]);
    const [after] = await queryRows<{ mode: string }>(
      handle.db,
      sql`select current_setting('synchronous_commit') as mode`,
    );
    expect(after?.mode).toBe('on');
  });

  it('refuses to run inside a transaction, whose every write the setting would cover', async () => {
    await expect(
      handle.db.transaction(async (tx) => insertClaim(tx as unknown as typeof handle.db, claimOf('third'), expiresAt)),
    ).rejects.toThrow('never inside a transaction');
    const [row] = await queryRows<{ count: number }>(
      handle.db,
      sql`select count(*)::int as count from idempotency_records where key = 'third'`,
    );
    expect(row?.count).toBe(0);
  });
});
