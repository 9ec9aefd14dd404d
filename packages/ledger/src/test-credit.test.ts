import type { ApiKeyOwner, DatabaseHandle } from '@platform/db';
import { ledgerEntries, ledgerTransactions, organizations, wallets } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { ensureWallet, ledgerBalances, testCreditReference, walletBalances } from './service.js';

// A new test wallet's starting credit (docs/decisions.md#test-credit): one top-up, written by the statement that
// creates the wallet, whoever creates it and however many create it at once.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function newOrganization(): Promise<string> {
  const [organization] = await handle.db.insert(organizations).values({ name: 'Test credit' }).returning();
  return organization!.id;
}

async function movementsOf(ref: ApiKeyOwner) {
  return handle.db
    .select({
      kind: ledgerTransactions.kind,
      amount: ledgerTransactions.amount,
      reference: ledgerTransactions.reference,
      availableAfter: ledgerTransactions.availableAfter,
    })
    .from(ledgerTransactions)
    .innerJoin(wallets, eq(wallets.id, ledgerTransactions.walletId))
    .where(and(eq(wallets.organizationId, ref.organizationId), eq(wallets.environment, ref.environment)));
}

async function expectMatchesLedger(walletId: string, available: number) {
  expect(await ledgerBalances(handle.db, walletId)).toEqual({ available, held: 0 });
  const entries = await handle.db.select().from(ledgerEntries).where(eq(ledgerEntries.walletId, walletId));
  expect(entries.map((entry) => entry.account).sort()).toEqual(available > 0 ? ['available', 'funding'] : []);
}

describe('test credit', () => {
  it('starts a new test wallet with the credit, recorded as a top-up', async () => {
    const ref: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    const wallet = await ensureWallet(handle.db, ref, { testCredit: 10_000 });
    expect(wallet).toMatchObject({ availableBalance: 10_000, heldBalance: 0 });
    expect(await movementsOf(ref)).toEqual([
      { kind: 'top_up', amount: 10_000, reference: testCreditReference(ref.organizationId), availableAfter: 10_000 },
    ]);
    await expectMatchesLedger(wallet.id, 10_000);
  });

  it('credits nothing on a wallet that exists, a live wallet, or with no credit configured', async () => {
    const organizationId = await newOrganization();
    const test: ApiKeyOwner = { organizationId, environment: 'test' };
    await ensureWallet(handle.db, test, { testCredit: 500 });
    expect((await ensureWallet(handle.db, test, { testCredit: 500 })).availableBalance).toBe(500);
    expect(await movementsOf(test)).toHaveLength(1);

    const live: ApiKeyOwner = { organizationId, environment: 'live' };
    const liveWallet = await ensureWallet(handle.db, live, { testCredit: 500 });
    expect(liveWallet.availableBalance).toBe(0);
    expect(await movementsOf(live)).toEqual([]);

    const none: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    expect(await walletBalances(handle.db, none, { testCredit: 0 })).toEqual({ available: 0, held: 0 });
    expect(await movementsOf(none)).toEqual([]);
  });

  it('refuses a credit that is not a whole number of KES, creating nothing', async () => {
    const ref: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    await expect(ensureWallet(handle.db, ref, { testCredit: 10.5 })).rejects.toThrow(RangeError);
    expect(await handle.db.select().from(wallets).where(eq(wallets.organizationId, ref.organizationId))).toEqual([]);
  });
});

describe.skipIf(missing(postgresServer))('test credit under concurrency (real PostgreSQL)', () => {
  it('credits once when 20 first requests create the wallet at once', async () => {
    const ref: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? ensureWallet(handle.db, ref, { testCredit: 10_000 }).then((wallet) => wallet.availableBalance)
          : walletBalances(handle.db, ref, { testCredit: 10_000 }).then((balances) => balances.available),
      ),
    );
    expect(new Set(seen)).toEqual(new Set([10_000]));
    const movements = await movementsOf(ref);
    expect(movements).toHaveLength(1);
    const [wallet] = await handle.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.organizationId, ref.organizationId), eq(wallets.environment, 'test')));
    expect(wallet?.availableBalance).toBe(10_000);
    await expectMatchesLedger(wallet!.id, 10_000);
  });
});
