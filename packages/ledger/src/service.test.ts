import type { ApiKeyOwner, DatabaseHandle } from '@platform/db';
import { ledgerEntries, ledgerTransactions, organizations, wallets } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { HoldAlreadyResolvedError, InsufficientFundsError, MovementRaceError } from './errors.js';
import { captureHold, ledgerBalances, placeHold, releaseHold, topUpWallet } from './service.js';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function newWallet(environment: 'live' | 'test' = 'live'): Promise<ApiKeyOwner> {
  const [organization] = await handle.db.insert(organizations).values({ name: 'Ledger test' }).returning();
  return { organizationId: organization!.id, environment };
}

async function walletRow(ref: ApiKeyOwner) {
  const [row] = await handle.db
    .select()
    .from(wallets)
    .where(sql`${wallets.organizationId} = ${ref.organizationId} and ${wallets.environment} = ${ref.environment}`);
  return row!;
}

/** The cached balances equal the ledger, and every transaction's entries sum to zero. */
async function expectConsistent(ref: ApiKeyOwner) {
  const row = await walletRow(ref);
  expect(await ledgerBalances(handle.db, row.id)).toEqual({ available: row.availableBalance, held: row.heldBalance });
  const unbalanced = await handle.db
    .select({ id: ledgerEntries.transactionId, total: sql<string>`sum(${ledgerEntries.amount})` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.walletId, row.id))
    .groupBy(ledgerEntries.transactionId)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
  expect(unbalanced).toEqual([]);
  return row;
}

const inTx = <T>(work: Parameters<typeof handle.db.transaction<T>>[0]) => handle.db.transaction(work);

describe('wallet ledger', () => {
  it('tops up once per reference', async () => {
    const ref = await newWallet();
    const first = await inTx((tx) => topUpWallet(tx, ref, { amount: 500, reference: 'payment:PAY-1' }));
    const again = await inTx((tx) => topUpWallet(tx, ref, { amount: 500, reference: 'payment:PAY-1' }));
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(again.transactionId).toBe(first.transactionId);
    const row = await expectConsistent(ref);
    expect(row.availableBalance).toBe(500);
  });

  it('holds, then captures exactly once', async () => {
    const ref = await newWallet();
    await inTx((tx) => topUpWallet(tx, ref, { amount: 300, reference: 'seed:a' }));
    await inTx((tx) => placeHold(tx, ref, { amount: 200, reference: 'verification_session:s1' }));
    expect(await walletRow(ref)).toMatchObject({ availableBalance: 100, heldBalance: 200 });

    const captured = await inTx((tx) => captureHold(tx, ref, 'verification_session:s1'));
    const twice = await inTx((tx) => captureHold(tx, ref, 'verification_session:s1'));
    expect([captured.applied, twice.applied]).toEqual([true, false]);
    await expect(inTx((tx) => releaseHold(tx, ref, 'verification_session:s1'))).rejects.toBeInstanceOf(
      HoldAlreadyResolvedError,
    );
    const row = await expectConsistent(ref);
    expect(row).toMatchObject({ availableBalance: 100, heldBalance: 0 });
  });

  it('releases a hold back to the available balance, and never captures it afterwards', async () => {
    const ref = await newWallet();
    await inTx((tx) => topUpWallet(tx, ref, { amount: 50, reference: 'seed:b' }));
    await inTx((tx) => placeHold(tx, ref, { amount: 50, reference: 'verification_session:s2' }));
    const released = await inTx((tx) => releaseHold(tx, ref, 'verification_session:s2'));
    expect(released.applied).toBe(true);
    await expect(inTx((tx) => captureHold(tx, ref, 'verification_session:s2'))).rejects.toBeInstanceOf(
      HoldAlreadyResolvedError,
    );
    expect(await expectConsistent(ref)).toMatchObject({ availableBalance: 50, heldBalance: 0 });
  });

  it('refuses a hold above the available balance and writes nothing', async () => {
    const ref = await newWallet('test');
    await inTx((tx) => topUpWallet(tx, ref, { amount: 49, reference: 'seed:c' }));
    const before = await handle.db.select({ n: sql<number>`count(*)::int` }).from(ledgerTransactions);
    await expect(
      inTx((tx) => placeHold(tx, ref, { amount: 50, reference: 'verification_session:s3' })),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    const after = await handle.db.select({ n: sql<number>`count(*)::int` }).from(ledgerTransactions);
    expect(after).toEqual(before);
    expect(await expectConsistent(ref)).toMatchObject({ availableBalance: 49, heldBalance: 0 });
  });

  it('refuses amounts that are not whole KES above zero', async () => {
    const ref = await newWallet();
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await expect(inTx((tx) => topUpWallet(tx, ref, { amount, reference: `bad:${amount}` }))).rejects.toThrow(
        /whole number of KES/,
      );
    }
  });

  it('has a CHECK that keeps the available balance from going below zero', async () => {
    const ref = await newWallet();
    await inTx((tx) => topUpWallet(tx, ref, { amount: 10, reference: 'seed:d' }));
    const row = await walletRow(ref);
    await expect(
      handle.db.update(wallets).set({ availableBalance: -1 }).where(eq(wallets.id, row.id)),
    ).rejects.toThrow();
  });
});

describe.skipIf(missing(postgresServer))('wallet ledger under concurrency (real PostgreSQL)', () => {
  it('with balance for exactly N holds, 3N concurrent holds give exactly N', async () => {
    const ref = await newWallet();
    const price = 50;
    const n = 10;
    await inTx((tx) => topUpWallet(tx, ref, { amount: price * n, reference: 'seed:concurrent' }));
    const results = await Promise.allSettled(
      Array.from({ length: 3 * n }, (_, i) =>
        inTx((tx) => placeHold(tx, ref, { amount: price, reference: `verification_session:c${i}` })),
      ),
    );
    const held = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof InsufficientFundsError,
    );
    expect(held).toHaveLength(n);
    expect(refused).toHaveLength(2 * n);
    expect(await expectConsistent(ref)).toMatchObject({ availableBalance: 0, heldBalance: price * n });
  });

  it('a capture and a release racing for one hold resolve it once', async () => {
    const ref = await newWallet();
    await inTx((tx) => topUpWallet(tx, ref, { amount: 100, reference: 'seed:race' }));
    for (let round = 0; round < 10; round += 1) {
      const reference = `verification_session:race${round}`;
      await inTx((tx) => placeHold(tx, ref, { amount: 10, reference }));
      const outcomes = await Promise.allSettled([
        inTx((tx) => captureHold(tx, ref, reference)),
        inTx((tx) => releaseHold(tx, ref, reference)),
        inTx((tx) => releaseHold(tx, ref, reference)),
      ]);
      const applied = outcomes.filter((o) => o.status === 'fulfilled' && o.value.applied);
      expect(applied).toHaveLength(1);
      // The others saw the winner (a repeat, or the other kind), or met it in the unique index while it committed.
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          expect(outcome.reason).toSatisfy(
            (reason) => reason instanceof HoldAlreadyResolvedError || reason instanceof MovementRaceError,
          );
        }
      }
    }
    const row = await expectConsistent(ref);
    expect(row.heldBalance).toBe(0);
    expect(row.availableBalance).toBeLessThanOrEqual(100);
  });
});
