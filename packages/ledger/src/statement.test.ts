import { randomUUID } from 'node:crypto';
import type { ApiKeyOwner, DatabaseHandle } from '@platform/db';
import { queryRows } from '@platform/db';
import { organizations, wallets } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { isAppError } from '@platform/errors';
import { encodeCursor } from '@platform/pagination';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { InsufficientFundsError } from './errors.js';
import { captureHold, placeHold, releaseHold, topUpWallet } from './service.js';
import { type WalletTransactionView, walletStatement } from './statement.js';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function newOrganization(): Promise<string> {
  const [organization] = await handle.db.insert(organizations).values({ name: 'Statement test' }).returning();
  return organization!.id;
}

const inTx = <T>(work: Parameters<typeof handle.db.transaction<T>>[0]) => handle.db.transaction(work);

/** Every movement of the wallet, newest first, read a page of `limit` at a time. */
async function wholeStatement(owner: ApiKeyOwner, limit = 100): Promise<WalletTransactionView[]> {
  const all: WalletTransactionView[] = [];
  let cursor: string | undefined;
  do {
    const page = await walletStatement(handle.db, owner, { limit, cursor });
    all.push(...page.transactions);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}

/**
 * The balances after each movement as the entries say, in the statement's order (oldest first): a running sum of
 * the wallet's available and held entries. The stored balances must equal it.
 */
async function runningSums(walletId: string) {
  return queryRows<{ id: string; available: string; held: string }>(
    handle.db,
    sql`select t.id,
               sum(coalesce(e.available, 0)) over w as available,
               sum(coalesce(e.held, 0)) over w as held
        from ledger_transactions t
        left join (select transaction_id,
                          sum(amount) filter (where account = 'available') as available,
                          sum(amount) filter (where account = 'held') as held
                   from ledger_entries group by transaction_id) e on e.transaction_id = t.id
        where t.wallet_id = ${walletId}
        window w as (order by t.created_at, t.id rows unbounded preceding)
        order by t.created_at, t.id`,
  );
}

async function walletIdOf(owner: ApiKeyOwner): Promise<string> {
  const [row] = await handle.db
    .select({ id: wallets.id })
    .from(wallets)
    .where(sql`${wallets.organizationId} = ${owner.organizationId} and ${wallets.environment} = ${owner.environment}`);
  return row!.id;
}

describe('wallet statement', () => {
  it('lists every kind of movement, newest first, with what it belongs to and the balances after it', async () => {
    const live: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'live' };
    const kept = randomUUID();
    const returned = randomUUID();
    await inTx((tx) => topUpWallet(tx, live, { amount: 1_000, reference: 'payment:PAY-0001', description: 'Top-up' }));
    await inTx((tx) => placeHold(tx, live, { amount: 50, reference: `verification_session:${kept}` }));
    await inTx((tx) => placeHold(tx, live, { amount: 200, reference: `verification_session:${returned}` }));
    await inTx((tx) => captureHold(tx, live, `verification_session:${kept}`, 'kyc verification verified'));
    await inTx((tx) => releaseHold(tx, live, `verification_session:${returned}`));
    await inTx((tx) => topUpWallet(tx, live, { amount: 300, reference: 'manual:credit-1' }));

    const statement = await wholeStatement(live);
    expect(
      statement.map(({ kind, amount, reference, sessionId, paymentReference, balanceAfter }) => ({
        kind,
        amount,
        reference,
        sessionId,
        paymentReference,
        balanceAfter,
      })),
    ).toEqual([
      {
        kind: 'top_up',
        amount: 300,
        reference: 'manual:credit-1',
        sessionId: null,
        paymentReference: null,
        balanceAfter: { available: 1_250, held: 0 },
      },
      {
        kind: 'release',
        amount: 200,
        reference: `verification_session:${returned}`,
        sessionId: returned,
        paymentReference: null,
        balanceAfter: { available: 950, held: 0 },
      },
      {
        kind: 'capture',
        amount: 50,
        reference: `verification_session:${kept}`,
        sessionId: kept,
        paymentReference: null,
        balanceAfter: { available: 750, held: 200 },
      },
      {
        kind: 'hold',
        amount: 200,
        reference: `verification_session:${returned}`,
        sessionId: returned,
        paymentReference: null,
        balanceAfter: { available: 750, held: 250 },
      },
      {
        kind: 'hold',
        amount: 50,
        reference: `verification_session:${kept}`,
        sessionId: kept,
        paymentReference: null,
        balanceAfter: { available: 950, held: 50 },
      },
      {
        kind: 'top_up',
        amount: 1_000,
        reference: 'payment:PAY-0001',
        sessionId: null,
        paymentReference: 'PAY-0001',
        balanceAfter: { available: 1_000, held: 0 },
      },
    ]);
    expect(statement[2]!.description).toBe('kyc verification verified');
    expect(statement.at(-1)!.description).toBe('Top-up');
    for (const row of statement) expect(row.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const sums = await runningSums(await walletIdOf(live));
    expect(sums.map((row) => row.id)).toEqual(statement.map((row) => row.id).reverse());
    expect(sums.map((row) => ({ available: Number(row.available), held: Number(row.held) }))).toEqual(
      statement.map((row) => row.balanceAfter).reverse(),
    );
  });

  it('keeps each environment and organization to its own wallet', async () => {
    const organizationId = await newOrganization();
    const live: ApiKeyOwner = { organizationId, environment: 'live' };
    const test: ApiKeyOwner = { organizationId, environment: 'test' };
    const other: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'live' };
    await inTx((tx) => topUpWallet(tx, live, { amount: 100, reference: `live:${organizationId}` }));
    await inTx((tx) => topUpWallet(tx, test, { amount: 7, reference: `test:${organizationId}` }));
    await inTx((tx) => topUpWallet(tx, other, { amount: 9, reference: `other:${organizationId}` }));

    expect((await wholeStatement(live)).map((row) => row.amount)).toEqual([100]);
    expect((await wholeStatement(test)).map((row) => row.amount)).toEqual([7]);
    expect((await wholeStatement(other)).map((row) => row.amount)).toEqual([9]);
  });

  it('pages with a cursor, never repeating or skipping a movement, and ends with a null cursor', async () => {
    const owner: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'live' };
    // Several movements in one transaction: the ledger's own clock still orders them.
    await inTx(async (tx) => {
      for (let i = 1; i <= 7; i += 1) {
        await topUpWallet(tx, owner, { amount: i, reference: `page:${owner.organizationId}:${i}` });
      }
    });
    const first = await walletStatement(handle.db, owner, { limit: 3, cursor: undefined });
    expect(first.transactions.map((row) => row.amount)).toEqual([7, 6, 5]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const paged = await wholeStatement(owner, 3);
    expect(paged.map((row) => row.amount)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(paged.map((row) => row.balanceAfter.available)).toEqual([28, 21, 15, 10, 6, 3, 1]);
    const last = await walletStatement(handle.db, owner, { limit: 7, cursor: undefined });
    expect(last.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not give with a 400, and shows a wallet never used as empty without creating it', async () => {
    const owner: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    let refused: unknown;
    try {
      await walletStatement(handle.db, owner, { limit: 10, cursor: 'bm90LWEtY3Vyc29y' });
    } catch (error) {
      refused = error;
    }
    expect(isAppError(refused) && refused.statusCode).toBe(400);

    expect(await walletStatement(handle.db, owner, { limit: 10, cursor: undefined })).toEqual({
      transactions: [],
      nextCursor: null,
    });
    expect(await handle.db.$count(wallets, eq(wallets.organizationId, owner.organizationId))).toBe(0);
  });
});

/**
 * Top-ups written straight into the ledger at the given times (UTC, microseconds), each with balanced entries, after
 * a first top-up that creates the wallet: the ledger's own clock never gives two movements the same time.
 */
async function topUpsAt(owner: ApiKeyOwner, times: string[]): Promise<void> {
  await inTx((tx) => topUpWallet(tx, owner, { amount: 1, reference: `first:${owner.organizationId}` }));
  const walletId = await walletIdOf(owner);
  await inTx(async (tx) => {
    for (const [i, at] of times.entries()) {
      await tx.execute(sql`with movement as (
          insert into ledger_transactions (wallet_id, kind, amount, reference, available_after, held_after, created_at)
          values (${walletId}::uuid, 'top_up', ${i + 2}::bigint, ${`at:${owner.organizationId}:${i}`}::text,
            ${i + 2}::bigint, 0, ${at}::timestamptz)
          returning id, wallet_id, amount
        )
        insert into ledger_entries (transaction_id, wallet_id, account, amount)
        select id, wallet_id, 'available', amount from movement
        union all
        select id, wallet_id, 'funding', -amount from movement`);
    }
  });
}

describe('wallet statement pages and times', () => {
  it('orders movements of the same time by id, a page boundary among them neither repeating nor skipping one', async () => {
    const owner: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'live' };
    const tie = '2026-03-02T09:00:00.123456Z';
    await topUpsAt(owner, ['2026-03-02T09:00:00.123455Z', tie, tie, tie, tie, '2026-03-02T09:00:00.123457Z']);
    const expected = await queryRows<{ id: string; position: string }>(
      handle.db,
      sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position
          from ledger_transactions where wallet_id = ${await walletIdOf(owner)}::uuid
          order by created_at desc, id desc`,
    );
    // The first top-up (now), the one after the tie, then the tie from its highest id down: a page of 4 ends in it.
    expect(expected.map((row) => row.position).slice(1)).toEqual([
      '2026-03-02T09:00:00.123457Z',
      tie,
      tie,
      tie,
      tie,
      '2026-03-02T09:00:00.123455Z',
    ]);

    const first = await walletStatement(handle.db, owner, { limit: 4, cursor: undefined });
    expect(first.transactions.map((row) => row.id)).toEqual(expected.slice(0, 4).map((row) => row.id));
    expect(first.nextCursor).toBe(encodeCursor({ createdAt: tie, id: expected[3]!.id }));

    const second = await walletStatement(handle.db, owner, { limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.transactions.map((row) => row.id)).toEqual(expected.slice(4, 6).map((row) => row.id));
    expect(second.nextCursor).toBe(encodeCursor({ createdAt: tie, id: expected[5]!.id }));

    const last = await walletStatement(handle.db, owner, { limit: 2, cursor: second.nextCursor ?? undefined });
    expect(last.transactions.map((row) => row.id)).toEqual([expected[6]!.id]);
    expect(last.nextCursor).toBeNull();
    expect(last.transactions[0]).toEqual({
      id: expected[6]!.id,
      kind: 'top_up',
      amount: 2,
      reference: `at:${owner.organizationId}:0`,
      sessionId: null,
      paymentReference: null,
      description: null,
      balanceAfter: { available: 2, held: 0 },
      createdAt: '2026-03-02T09:00:00.123Z',
    });
  });

  it('writes each time as Date#toISOString does: UTC, milliseconds, truncated', async () => {
    const owner: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'test' };
    // Before the first top-up (now), which comes first.
    const times = [
      '2025-12-31T23:59:59.999999Z',
      '2025-06-01T00:00:00.000000Z',
      '2025-06-01 03:30:00.000999+03:30',
      '2025-02-28T12:34:56.100500Z',
    ];
    await topUpsAt(owner, times);
    const { transactions } = await walletStatement(handle.db, owner, { limit: 10, cursor: undefined });
    expect(transactions.slice(1).map((row) => row.createdAt)).toEqual([
      '2025-12-31T23:59:59.999Z',
      '2025-06-01T00:00:00.000Z',
      '2025-06-01T00:00:00.000Z',
      '2025-02-28T12:34:56.100Z',
    ]);
    expect(transactions.slice(1).map((row) => row.amount)).toEqual([2, 4, 3, 5]);
    const [now] = await queryRows<{ created_at: Date }>(
      handle.db,
      sql`select created_at from ledger_transactions where id = ${transactions[0]!.id}::uuid`,
    );
    expect(transactions[0]!.createdAt).toBe(new Date(now!.created_at).toISOString());
  });
});

describe.skipIf(missing(postgresServer))('wallet statement under concurrency (real PostgreSQL)', () => {
  it('records the balances in the order the movements took the wallet, whatever order their transactions began in', async () => {
    const owner: ApiKeyOwner = { organizationId: await newOrganization(), environment: 'live' };
    await inTx((tx) => topUpWallet(tx, owner, { amount: 100, reference: `seed:${owner.organizationId}` }));
    // Each transaction begins, waits a moment, then moves money: they reach the wallet's lock in another order than
    // they began in, and holds succeed or fail depending on the top-ups that got there first.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) =>
        inTx(async (tx) => {
          await tx.execute(sql`select pg_sleep(${(i % 5) / 100})`);
          return i % 3 === 0
            ? topUpWallet(tx, owner, { amount: 40, reference: `race-top-up:${owner.organizationId}:${i}` })
            : placeHold(tx, owner, { amount: 30, reference: `verification_session:${randomUUID()}` });
        }),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InsufficientFundsError);
    }

    const statement = (await wholeStatement(owner, 5)).reverse();
    let available = 0;
    let held = 0;
    for (const row of statement) {
      available += row.kind === 'top_up' ? row.amount : -row.amount;
      held += row.kind === 'hold' ? row.amount : 0;
      expect(row.balanceAfter).toEqual({ available, held });
    }
    const [wallet] = await handle.db
      .select()
      .from(wallets)
      .where(eq(wallets.id, await walletIdOf(owner)));
    expect(statement.at(-1)!.balanceAfter).toEqual({ available: wallet!.availableBalance, held: wallet!.heldBalance });
    const sums = await runningSums(wallet!.id);
    expect(sums.map((row) => ({ available: Number(row.available), held: Number(row.held) }))).toEqual(
      statement.map((row) => row.balanceAfter),
    );
  });
});
