import { randomBytes } from 'node:crypto';
import { findActiveApiKey } from '@platform/api-keys';
import { type DatabaseHandle, queryRows } from '@platform/db';
import { captureHold, ledgerBalances, walletStatement } from '@platform/ledger';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type BenchDatabase, createBenchDatabase, openDatabase } from './database.js';
import { type BenchFixture, seedBenchData } from './seed.js';
import { interleave } from './seed-decisions.js';

// The bench's data on PostgreSQL, seeded as a run seeds it (smaller): what the new rows read and spend is there, and
// the money seeded in bulk is money the ledger itself recognises.

describe('interleave', () => {
  it('takes the first of each list, then the second of each, and so on', () => {
    expect(interleave([['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2']])).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(interleave([])).toEqual([]);
  });
});

describe.skipIf(missing(postgresServer))('seedBenchData', () => {
  let database: BenchDatabase;
  let handle: DatabaseHandle;
  let fixture: BenchFixture;

  beforeAll(async () => {
    const runId = `test_${randomBytes(4).toString('hex')}`;
    database = await createBenchDatabase(process.env.DATABASE_URL!, runId);
    handle = await openDatabase(database.url, 4);
    fixture = await seedBenchData(handle.db, runId, { customers: 3, sessionsAwaitingReview: 7 });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** Every wallet's cached balances, and its balances as the sums of its ledger entries. */
  async function walletsAndLedger() {
    const wallets = await queryRows<{ id: string; organization_id: string; available: number; held: number }>(
      handle.db,
      sql`select id, organization_id, available_balance::int as available, held_balance::int as held from wallets`,
    );
    return Promise.all(
      wallets.map(async (wallet) => ({
        ...wallet,
        ledger: await ledgerBalances(handle.db, wallet.id),
      })),
    );
  }

  it('gives each customer an owner, a live key of its own and a funded live wallet', async () => {
    expect(fixture.customers).toHaveLength(3);
    for (const customer of fixture.customers) {
      expect(await findActiveApiKey(handle.db, customer.apiKey)).toMatchObject({
        id: customer.apiKeyId,
        organizationId: customer.id,
        environment: 'live',
      });
      const [owner] = await queryRows<{ role: string }>(
        handle.db,
        sql`select role from memberships where organization_id = ${customer.id}::uuid and user_id = ${customer.ownerUserId}`,
      );
      expect(owner?.role).toBe('owner');
    }
    expect(new Set(fixture.customers.map((customer) => customer.id)).size).toBe(3);
    expect(fixture.apiKeyIds).toEqual(expect.arrayContaining(fixture.customers.map((customer) => customer.apiKeyId)));
  });

  it('makes a platform organization whose one member is a reviewer', async () => {
    const members = await queryRows<{ user_id: string; role: string }>(
      handle.db,
      sql`select user_id, role from memberships where organization_id = ${fixture.platform.id}::uuid`,
    );
    expect(members).toEqual([{ user_id: fixture.platform.reviewerUserId, role: 'reviewer' }]);
    expect(fixture.userIds).toContain(fixture.platform.reviewerUserId);
  });

  it('seeds sessions waiting for a reviewer, taking the customers in turn, each with its price held', async () => {
    expect(fixture.sessionsAwaitingReview).toHaveLength(7);
    const sessions = await queryRows<{
      id: string;
      organization_id: string;
      status: string;
      decision_source: string;
      environment: string;
      holds: number;
      transitions: number;
    }>(
      handle.db,
      sql`select s.id::text, s.organization_id::text, s.status, s.decision_source, s.environment,
                 (select count(*)::int from ledger_transactions t
                  where t.kind = 'hold' and t.reference = 'verification_session:' || s.id and t.wallet_id = s.wallet_id) as holds,
                 (select count(*)::int from verification_session_transitions r where r.session_id = s.id) as transitions
          from verification_sessions s where s.decision_source = 'manual'`,
    );
    const byId = new Map(sessions.map((session) => [session.id, session]));
    const organizations = fixture.sessionsAwaitingReview.map((id) => byId.get(id)?.organization_id);
    expect(organizations.slice(0, 3)).toEqual(fixture.customers.map((customer) => customer.id));
    expect(organizations.slice(3, 6)).toEqual(fixture.customers.map((customer) => customer.id));
    for (const id of fixture.sessionsAwaitingReview) {
      expect(byId.get(id)).toMatchObject({
        status: 'processing',
        decision_source: 'manual',
        environment: 'live',
        holds: 1,
        transitions: 2,
      });
    }
  });

  it('keeps every wallet equal to its ledger, and the seeded holds are holds the ledger captures', async () => {
    const before = await walletsAndLedger();
    for (const wallet of before) expect(wallet.ledger).toEqual({ available: wallet.available, held: wallet.held });
    const first = fixture.customers[0]!;
    expect(before.find((wallet) => wallet.organization_id === first.id)).toMatchObject({
      available: 1_000_000_000 - 3 * 50,
      held: 3 * 50,
    });

    const captured = await handle.db.transaction((tx) =>
      captureHold(
        tx,
        { organizationId: first.id, environment: 'live' },
        `verification_session:${fixture.sessionsAwaitingReview[0]}`,
      ),
    );
    expect(captured.applied).toBe(true);
    const after = await walletsAndLedger();
    const wallet = after.find((candidate) => candidate.organization_id === first.id)!;
    expect(wallet).toMatchObject({ available: 1_000_000_000 - 3 * 50, held: 2 * 50 });
    expect(wallet.ledger).toEqual({ available: wallet.available, held: wallet.held });
  });

  it('gives the measured wallet more than a page of movements, and the organization more than a page of payments', async () => {
    const statement = await walletStatement(
      handle.db,
      { organizationId: fixture.organizationId, environment: 'live' },
      { limit: 50, cursor: undefined },
    );
    expect(statement.transactions).toHaveLength(50);
    expect(statement.nextCursor).not.toBeNull();

    const [payments] = await queryRows<{ all: number; succeeded: number; receipts: number; last: number }>(
      handle.db,
      sql`select (select count(*)::int from payments where organization_id = ${fixture.organizationId}::uuid) as all,
                 (select count(*)::int from payments where status = 'succeeded') as succeeded,
                 (select count(*)::int from receipts where number = 'RCT-' || lpad(sequence::text, 6, '0')) as receipts,
                 (select last_number from document_number_series where series = 'receipt') as last`,
    );
    expect(payments).toEqual({ all: 200, succeeded: 120, receipts: 120, last: 120 });
  });

  it('gives the organization more than a page of live verification sessions, each with its first transition', async () => {
    const [sessions] = await queryRows<{ live: number; test: number; statuses: number; transitions: number }>(
      handle.db,
      sql`select (select count(*)::int from verification_sessions
                  where organization_id = ${fixture.organizationId}::uuid and environment = 'live') as live,
                 (select count(*)::int from verification_sessions
                  where organization_id = ${fixture.organizationId}::uuid and environment = 'test') as test,
                 (select count(distinct status)::int from verification_sessions
                  where organization_id = ${fixture.organizationId}::uuid) as statuses,
                 (select count(*)::int from verification_session_transitions t
                  join verification_sessions s on s.id = t.session_id
                  where s.organization_id = ${fixture.organizationId}::uuid) as transitions`,
    );
    expect(sessions).toEqual({ live: 60, test: 0, statuses: 6, transitions: 60 });
  });
});
