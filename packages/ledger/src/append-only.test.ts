import type { ApiKeyOwner } from '@platform/db';
import { type DatabaseHandle, queryRows } from '@platform/db';
import { ledgerEntries, ledgerTransactions, organizations, wallets } from '@platform/db/schema';
import { createTestDatabase, tableChecksums } from '@platform/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureHold, ensureWallet, placeHold, topUpWallet } from './service.js';

// The database itself keeps the ledger append-only and balanced (@platform/db's migration 0006), and keeps
// ledger history from being deleted with its wallet or organization (0005). Runs on PGlite, and on PostgreSQL
// with DATABASE_URL, so both drivers are shown to refuse the same things.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string; constraint?: string }> {
  try {
    await work;
  } catch (error) {
    const cause = ((error as { cause?: unknown }).cause ?? error) as {
      code?: string;
      message: string;
      constraint?: string;
      constraint_name?: string;
    };
    // postgres.js calls it constraint_name, PGlite constraint.
    return { code: cause.code, message: cause.message, constraint: cause.constraint_name ?? cause.constraint };
  }
  throw new Error('Expected the statement to fail');
}

async function organizationWithHistory(): Promise<ApiKeyOwner & { walletId: string; holdTransactionId: string }> {
  const [organization] = await handle.db.insert(organizations).values({ name: 'Ledger history' }).returning();
  const ref: ApiKeyOwner = { organizationId: organization!.id, environment: 'live' };
  await handle.db.transaction((tx) => topUpWallet(tx, ref, { amount: 500, reference: `seed:${ref.organizationId}` }));
  const hold = await handle.db.transaction((tx) =>
    placeHold(tx, ref, { amount: 50, reference: `verification_session:${ref.organizationId}` }),
  );
  return { ...ref, walletId: hold.wallet.id, holdTransactionId: hold.transactionId };
}

const checksums = () => tableChecksums(handle.db);

describe('the ledger is append-only', () => {
  it('refuses to update a ledger transaction or entry', async () => {
    const { holdTransactionId } = await organizationWithHistory();
    const before = await checksums();

    const updateTransaction = await databaseError(
      handle.db.update(ledgerTransactions).set({ amount: 1 }).where(eq(ledgerTransactions.id, holdTransactionId)),
    );
    expect(updateTransaction.code).toBe('23001');
    expect(updateTransaction.message).toContain('The ledger is append-only: UPDATE on ledger_transactions is refused');

    const updateEntries = await databaseError(
      handle.db
        .update(ledgerEntries)
        .set({ amount: sql`${ledgerEntries.amount} * 2` })
        .where(eq(ledgerEntries.transactionId, holdTransactionId)),
    );
    expect(updateEntries.code).toBe('23001');
    expect(updateEntries.message).toContain('UPDATE on ledger_entries is refused');

    expect(await checksums()).toEqual(before);
  });

  it('refuses to delete a ledger transaction or entry', async () => {
    const { holdTransactionId, walletId } = await organizationWithHistory();
    const before = await checksums();

    const deleteEntries = await databaseError(
      handle.db.delete(ledgerEntries).where(eq(ledgerEntries.transactionId, holdTransactionId)),
    );
    expect(deleteEntries.code).toBe('23001');
    expect(deleteEntries.message).toContain('DELETE on ledger_entries is refused');

    const deleteTransaction = await databaseError(
      handle.db.delete(ledgerTransactions).where(eq(ledgerTransactions.walletId, walletId)),
    );
    expect(deleteTransaction.code).toBe('23001');
    expect(deleteTransaction.message).toContain('DELETE on ledger_transactions is refused');

    expect(await checksums()).toEqual(before);
  });

  it('refuses to delete a ledger transaction even when it has no entries left to protect it', async () => {
    // A transaction without entries can only exist inside a transaction that will not commit; the delete
    // trigger fires before the deferred balance check gets its turn.
    const { walletId } = await organizationWithHistory();
    const error = await databaseError(
      handle.db.transaction(async (tx) => {
        const [lonely] = await tx
          .insert(ledgerTransactions)
          .values({
            walletId,
            kind: 'top_up',
            amount: 5,
            reference: `lonely:${walletId}`,
            availableAfter: 0,
            heldAfter: 0,
          })
          .returning();
        await tx.delete(ledgerTransactions).where(eq(ledgerTransactions.id, lonely!.id));
      }),
    );
    expect(error.code).toBe('23001');
    expect(error.message).toContain('DELETE on ledger_transactions is refused');
  });

  it('refuses to delete a wallet that has ledger history, and its organization with it', async () => {
    const { organizationId, walletId } = await organizationWithHistory();
    const before = await checksums();

    // A RESTRICT foreign key is reported as 23001 by newer servers (PGlite's PostgreSQL 18), as 23503 by PostgreSQL 15.
    const refusedByLedgerKey = (error: { code?: string; message: string }) => {
      expect(['23001', '23503']).toContain(error.code);
      expect(error.message).toMatch(/foreign key constraint "ledger_(entries|transactions)_wallet_id_wallets_id_fk"/);
    };
    refusedByLedgerKey(await databaseError(handle.db.delete(wallets).where(eq(wallets.id, walletId))));
    refusedByLedgerKey(
      await databaseError(handle.db.delete(organizations).where(eq(organizations.id, organizationId))),
    );

    expect(await checksums()).toEqual(before);
  });

  it('lets an organization whose wallets never moved money go, wallets and all', async () => {
    const [organization] = await handle.db.insert(organizations).values({ name: 'No history' }).returning();
    const wallet = await ensureWallet(handle.db, { organizationId: organization!.id, environment: 'test' });
    await handle.db.delete(organizations).where(eq(organizations.id, organization!.id));
    expect(await handle.db.$count(wallets, eq(wallets.id, wallet.id))).toBe(0);
  });

  it('still records movements: a capture after a hold commits', async () => {
    const ref = await organizationWithHistory();
    const captured = await handle.db.transaction((tx) =>
      captureHold(tx, ref, `verification_session:${ref.organizationId}`),
    );
    expect(captured.applied).toBe(true);
    expect(captured.wallet).toMatchObject({ availableBalance: 450, heldBalance: 0 });
  });
});

describe('every ledger transaction balances, checked at commit', () => {
  async function insertMovement(
    walletId: string,
    reference: string,
    entries: Array<{ account: 'available' | 'held' | 'funding' | 'revenue'; amount: number }>,
  ) {
    return handle.db.transaction(async (tx) => {
      const [transaction] = await tx
        .insert(ledgerTransactions)
        .values({ walletId, kind: 'top_up', amount: 100, reference, availableAfter: 0, heldAfter: 0 })
        .returning();
      for (const entry of entries) {
        // Each statement on its own succeeds: the check is deferred until the commit.
        await tx.insert(ledgerEntries).values({ transactionId: transaction!.id, walletId, ...entry });
      }
      return transaction!.id;
    });
  }

  const movementsOf = (reference: string) =>
    handle.db.$count(ledgerTransactions, eq(ledgerTransactions.reference, reference));

  it('commits a transaction whose entries sum to zero', async () => {
    const { walletId } = await organizationWithHistory();
    await insertMovement(walletId, `balanced:${walletId}`, [
      { account: 'funding', amount: -100 },
      { account: 'available', amount: 60 },
      { account: 'available', amount: 40 },
    ]);
    expect(await movementsOf(`balanced:${walletId}`)).toBe(1);
  });

  it('refuses, at commit, entries that do not sum to zero, and keeps none of them', async () => {
    const { walletId } = await organizationWithHistory();
    const reference = `unbalanced:${walletId}`;
    const error = await databaseError(
      insertMovement(walletId, reference, [
        { account: 'funding', amount: -100 },
        { account: 'available', amount: 99 },
      ]),
    );
    expect(error.code).toBe('23514');
    expect(error.constraint).toMatch(/^ledger_(transactions|entries)_balanced$/);
    expect(error.message).toMatch(/Ledger transaction [0-9a-f-]{36} is not balanced: 2 entries summing to -1 KES/);
    expect(await movementsOf(reference)).toBe(0);
  });

  it('refuses a transaction with a single entry or none', async () => {
    const { walletId } = await organizationWithHistory();
    const none = await databaseError(insertMovement(walletId, `empty:${walletId}`, []));
    expect(none.code).toBe('23514');
    expect(none.message).toContain('0 entries summing to 0 KES');
    const single = await databaseError(
      insertMovement(walletId, `single:${walletId}`, [{ account: 'available', amount: 100 }]),
    );
    expect(single.code).toBe('23514');
    expect(single.message).toContain('1 entries summing to 100 KES');
    expect(await movementsOf(`empty:${walletId}`)).toBe(0);
    expect(await movementsOf(`single:${walletId}`)).toBe(0);
  });

  it('refuses an entry added later to a transaction that already balanced', async () => {
    const { walletId, holdTransactionId } = await organizationWithHistory();
    const before = await checksums();
    const error = await databaseError(
      handle.db.transaction((tx) =>
        tx
          .insert(ledgerEntries)
          .values({ transactionId: holdTransactionId, walletId, account: 'available', amount: 50 }),
      ),
    );
    expect(error.code).toBe('23514');
    expect(error.constraint).toBe('ledger_entries_balanced');
    expect(error.message).toContain('3 entries summing to 50 KES');
    expect(await checksums()).toEqual(before);
  });

  it('refuses an unbalanced entry outside an explicit transaction too', async () => {
    const { walletId, holdTransactionId } = await organizationWithHistory();
    const error = await databaseError(
      handle.db
        .insert(ledgerEntries)
        .values({ transactionId: holdTransactionId, walletId, account: 'held', amount: -1 }),
    );
    expect(error.code).toBe('23514');
    expect(await handle.db.$count(ledgerEntries, eq(ledgerEntries.transactionId, holdTransactionId))).toBe(2);
  });
});

describe('the migration', () => {
  it('installs the same triggers on either driver: two row guards and two deferred balance checks', async () => {
    const rows = await queryRows<{ name: string; table: string; deferrable: boolean; deferred: boolean }>(
      handle.db,
      sql`select t.tgname as name, c.relname as "table", t.tgdeferrable as deferrable, t.tginitdeferred as deferred
          from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where not t.tgisinternal and c.relname in ('ledger_transactions', 'ledger_entries')
          order by t.tgname`,
    );
    expect(rows).toEqual([
      { name: 'ledger_entries_append_only', table: 'ledger_entries', deferrable: false, deferred: false },
      { name: 'ledger_entries_balanced', table: 'ledger_entries', deferrable: true, deferred: true },
      { name: 'ledger_transactions_append_only', table: 'ledger_transactions', deferrable: false, deferred: false },
      { name: 'ledger_transactions_balanced', table: 'ledger_transactions', deferrable: true, deferred: true },
    ]);
  });
});
