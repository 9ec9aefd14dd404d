import { randomUUID } from 'node:crypto';
import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import {
  createApiKey,
  createDatabase,
  creditBalanceEntries,
  type Database,
  type DatabaseHandle,
  ledgerBalances,
  ledgerEntries,
  ledgerTransactions,
  mailSubscriptions,
  memberships,
  organizations,
  payments,
  queryRows,
  topUpWallet,
  users,
  verificationSessions,
  wallets,
} from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { signAccessToken } from '@platform/main-api';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { type Fleet, startFleet, TOKEN_AUDIENCE, TOKEN_ISSUER, urlOfDatabase } from './instances.js';

// Money invariants under load: thousands of random operations run concurrently against two instances of each
// service on one PostgreSQL (top-ups by saved card, verification sessions created, canceled, verified or
// rejected on the hosted page and expired by a third instance whose clock runs a day ahead, mail
// subscription upgrades and downgrades, with duplicated requests and retries), then the books are checked.
// The schedule comes from a seed: MONEY_SEED and MONEY_OPS replay or enlarge a run.

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const SEED = Number(process.env.MONEY_SEED ?? 20261124);
const OPERATIONS = Number(process.env.MONEY_OPS ?? 2_000);
const CONCURRENCY = 40;
const OPERATION_DEADLINE_MS = 60_000;
// The whole run's budget: ample for a loaded CI machine (about 15 s when it has the machine to itself). A hang
// is caught sooner by the per-operation deadline, which names the operation.
const RUN_BUDGET_MS = Math.max(120_000, OPERATIONS * 150);
const ORGANIZATIONS = 3;
const SEED_FUNDS = 2_000;
const DAY = 24 * 60 * 60 * 1000;
const HOSTED_PAGE_SECRET = randomUUID() + randomUUID();
// The expiring instance's clock: sessions expire 24 h after creation, so those older than this expire.
const EXPIRE_AFTER_MS = 3_000;

type Operation =
  | { kind: 'checkout'; org: number; instance: 0 | 1; amount: number; confirmations: 1 | 2 | 3 }
  | { kind: 'verify'; org: number; instance: 0 | 1; pick: number; outcome: 'approve' | 'reject'; twice: boolean }
  | { kind: 'top_up'; org: number; instance: 0 | 1; amount: number; duplicate: boolean }
  | { kind: 'create_session'; org: number; instance: 0 | 1; type: 'kyc' | 'kyb'; duplicate: boolean }
  | { kind: 'cancel_session'; org: number; instance: 0 | 1; pick: number; twice: boolean }
  | { kind: 'change_plan'; org: number; instance: 0 | 1; plan: 'core' | 'growth' | 'scale'; seats: number; duplicate: boolean };

const instance = fc.constantFrom<0 | 1>(0, 1);
const org = fc.nat(ORGANIZATIONS - 1);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('checkout' as const),
    org,
    instance,
    amount: fc.integer({ min: 1, max: 400 }),
    confirmations: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
  }),
  fc.record({ kind: fc.constant('top_up' as const), org, instance, amount: fc.integer({ min: 1, max: 400 }), duplicate: fc.boolean() }),
  fc.record({ kind: fc.constant('create_session' as const), org, instance, type: fc.constantFrom<'kyc' | 'kyb'>('kyc', 'kyb'), duplicate: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel_session' as const), org, instance, pick: fc.nat(), twice: fc.boolean() }),
  fc.record({
    kind: fc.constant('verify' as const),
    org,
    instance,
    pick: fc.nat(),
    outcome: fc.constantFrom<'approve' | 'reject'>('approve', 'reject'),
    twice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('change_plan' as const),
    org,
    instance,
    plan: fc.constantFrom<'core' | 'growth' | 'scale'>('core', 'growth', 'scale'),
    seats: fc.integer({ min: 1, max: 80 }),
    duplicate: fc.boolean(),
  }),
);

interface Organization {
  id: string;
  token: string;
  apiKey: string;
  cardId: string;
  sessions: string[];
}

describe.skipIf(missing(postgresServer, redisServer))(
  `money invariants under ${OPERATIONS} concurrent random operations (seed ${SEED}; needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)`,
  () => {
    let database: DatabaseHandle;
    let db: Database;
    let fleet: Fleet;
    let expirer: { close(): Promise<void> };
    const orgs: Organization[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      db = database.db;
      fleet = await startFleet({
        databaseUrl: await urlOfDatabase(database, databaseUrl!),
        redisUrl: redisUrl!,
        // One sandbox checkout secret, so a checkout page served by one instance is confirmed on either.
        mainEnv: { RATE_LIMIT_PER_MINUTE: '1000000', RENEWAL_INTERVAL_MS: '0', SANDBOX_CHECKOUT_SECRET: HOSTED_PAGE_SECRET },
        // The hosted page spends the test's one client address's budget: raised, as for main-api.
        backendEnv: { WEBHOOK_DELIVERY_ENABLED: 'false', HOSTED_PAGE_LIVE_SANDBOX: 'true', HOSTED_PAGE_SECRET, RATE_LIMIT_PER_MINUTE: '1000000' },
        maxConnections: 2,
      });
      expirer = await startExpiringInstance(await urlOfDatabase(database, databaseUrl!));
      for (let index = 0; index < ORGANIZATIONS; index += 1) orgs.push(await organization(index));
    });
    afterAll(async () => {
      await expirer?.close();
      await fleet?.close();
      await database?.close();
    });

    async function organization(index: number): Promise<Organization> {
      const [row] = await db.insert(organizations).values({ name: `Ledger ${index} ${randomUUID().slice(0, 6)}` }).returning();
      const id = row!.id;
      const userId = `user_money_${randomUUID().slice(0, 8)}`;
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      await db.insert(memberships).values({ organizationId: id, userId, role: 'owner' });
      await db.transaction((tx) =>
        topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: SEED_FUNDS, reference: `seed:${id}` }),
      );
      const { secret } = await createApiKey(db, { organizationId: id, environment: 'live', rateLimitPerMinute: 1_000_000 });
      const cardId = await insertSandboxCard(db, id);
      // A monthly core subscription in the middle of its period.
      await insertMonthlySubscription(db, id, cardId, 10);
      const token = await signAccessToken({ secret: fleet.jwtSecret, issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, subject: userId });
      return { id, token, apiKey: secret, cardId, sessions: [] };
    }

    const mainRequest = (target: Organization, on: 0 | 1, method: 'POST', url: string, body: object, key: string) =>
      fleet.main[on].inject({
        method,
        url,
        headers: { authorization: `Bearer ${target.token}`, 'x-organization-id': target.id, 'idempotency-key': key },
        payload: body,
      });
    const backendRequest = (target: Organization, on: 0 | 1, url: string, body: object | undefined, key: string) =>
      fleet.backend[on].inject({
        method: 'POST',
        url,
        headers: { 'x-service-api-key': target.apiKey, 'x-idempotency-key': key },
        ...(body === undefined ? {} : { payload: body }),
      });

    /** Runs one operation (twice at once where it is duplicated); returns every answer's status. */
    async function run(op: Operation): Promise<number[]> {
      const target = orgs[op.org]!;
      const other = (op.instance === 0 ? 1 : 0) as 0 | 1;
      const key = randomUUID();
      switch (op.kind) {
        case 'checkout': {
          // A card top-up through the hosted sandbox checkout, whose Pay confirmation arrives 1 to 3 times at
          // once on both instances: the duplicated provider callback.
          const started = await mainRequest(target, op.instance, 'POST', '/v1/billing/pay', { method: 'card', amount: op.amount }, key);
          if (started.statusCode !== 200) return [started.statusCode];
          const checkoutPath = new URL((started.json() as { checkoutUrl: string }).checkoutUrl).pathname;
          const page = await fleet.main[op.instance].inject({ method: 'GET', url: checkoutPath });
          const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
          const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
          const confirm = (on: 0 | 1) =>
            fleet.main[on].inject({
              method: 'POST',
              url: checkoutPath,
              headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ csrf, action: 'pay' }).toString(),
            });
          const confirmations = await Promise.all(Array.from({ length: op.confirmations }, (_, index) => confirm(((op.instance + index) % 2) as 0 | 1)));
          return [started.statusCode, page.statusCode, ...confirmations.map((response) => response.statusCode)];
        }
        case 'top_up': {
          const body = { method: 'saved_method', amount: op.amount, paymentMethodId: target.cardId };
          const sends = [mainRequest(target, op.instance, 'POST', '/v1/billing/pay', body, key)];
          if (op.duplicate) sends.push(mainRequest(target, other, 'POST', '/v1/billing/pay', body, key));
          return (await Promise.all(sends)).map((response) => response.statusCode);
        }
        case 'create_session': {
          const body = { type: op.type, externalEndUserId: `end-user-${key.slice(0, 8)}` };
          const sends = [backendRequest(target, op.instance, '/v1/verify/sessions', body, key)];
          if (op.duplicate) sends.push(backendRequest(target, other, '/v1/verify/sessions', body, key));
          const answers = await Promise.all(sends);
          const created = answers.find((response) => response.statusCode === 201);
          if (created !== undefined) target.sessions.push((created.json() as { data: { sessionId: string } }).data.sessionId);
          return answers.map((response) => response.statusCode);
        }
        case 'cancel_session': {
          if (target.sessions.length === 0) return [];
          const id = target.sessions[op.pick % target.sessions.length]!;
          const url = `/v1/verify/sessions/${id}/cancel`;
          const sends = [backendRequest(target, op.instance, url, undefined, randomUUID())];
          if (op.twice) sends.push(backendRequest(target, other, url, undefined, randomUUID()));
          return (await Promise.all(sends)).map((response) => response.statusCode);
        }
        case 'verify': {
          if (target.sessions.length === 0) return [];
          const id = target.sessions[op.pick % target.sessions.length]!;
          const page = await fleet.backend[op.instance].inject({ method: 'GET', url: `/session/${id}` });
          const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
          if (token === undefined) return [page.statusCode]; // finished or expired: no sandbox form
          const act = (on: 0 | 1, action: string) =>
            fleet.backend[on].inject({
              method: 'POST',
              url: `/session/${id}`,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ token, action }).toString(),
            });
          const submitted = await act(op.instance, 'submit');
          const decided = await Promise.all(op.twice ? [act(op.instance, op.outcome), act(other, op.outcome)] : [act(op.instance, op.outcome)]);
          return [page.statusCode, submitted.statusCode, ...decided.map((response) => response.statusCode)];
        }
        case 'change_plan': {
          const body = { newPlan: op.plan, newSeats: op.seats, newCycle: 'monthly', paymentMethodId: target.cardId };
          const sends = [mainRequest(target, op.instance, 'POST', '/v1/billing/upgrade', body, key)];
          if (op.duplicate) sends.push(mainRequest(target, other, 'POST', '/v1/billing/upgrade', body, randomUUID()));
          return (await Promise.all(sends)).map((response) => response.statusCode);
        }
      }
    }

    /** run(), failing with the operation's description if it has not finished in time (instead of a silent hang). */
    async function withDeadline(op: Operation): Promise<number[]> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`seed ${SEED}: unfinished after ${OPERATION_DEADLINE_MS} ms: ${JSON.stringify(op)}`)), OPERATION_DEADLINE_MS);
      });
      try {
        return await Promise.race([run(op), deadline]);
      } finally {
        clearTimeout(timer);
      }
    }

    it('keeps every balance equal to its ledger, resolves no hold twice and applies no payment twice', async () => {
      const schedule = fc.sample(fc.array(operation, { minLength: OPERATIONS, maxLength: OPERATIONS }), { seed: SEED, numRuns: 1 })[0]!;
      const statuses = new Map<number, number>();
      for (let start = 0; start < schedule.length; start += CONCURRENCY) {
        const answers = await Promise.all(schedule.slice(start, start + CONCURRENCY).map(withDeadline));
        for (const status of answers.flat()) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // The books are read at rest: the expiring instance stops first.
      await expirer.close();
      const serverErrors = [...statuses].filter(([status]) => status >= 500);
      expect(serverErrors, `seed ${SEED}: ${JSON.stringify([...statuses])}`).toEqual([]);
      // The run did move money: payments, holds, releases and subscription changes all happened.
      expect(statuses.get(201) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(OPERATIONS / 20);
      expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(OPERATIONS / 20);

      // Every wallet: the stored balances are what its ledger sums to, never below zero.
      for (const wallet of await db.select().from(wallets)) {
        expect(await ledgerBalances(db, wallet.id), `wallet ${wallet.id}, seed ${SEED}`).toEqual({
          available: wallet.availableBalance,
          held: wallet.heldBalance,
        });
        expect(wallet.availableBalance).toBeGreaterThanOrEqual(0);
        expect(wallet.heldBalance).toBeGreaterThanOrEqual(0);
      }
      // Double entry: every transaction's entries cancel out.
      const unbalanced = await queryRows(
        db,
        sql`select ${ledgerEntries.transactionId} from ${ledgerEntries} group by 1 having sum(${ledgerEntries.amount}) <> 0`,
      );
      expect(unbalanced).toEqual([]);

      // Holds: one per session, resolved at most once, released exactly for canceled sessions.
      const movements = await queryRows<{ reference: string; kind: string; times: number }>(
        db,
        sql`select ${ledgerTransactions.reference} as reference, ${ledgerTransactions.kind} as kind, count(*)::int as times
            from ${ledgerTransactions} group by 1, 2`,
      );
      const timesOf = (reference: string, kind: string) =>
        movements.find((movement) => movement.reference === reference && movement.kind === kind)?.times ?? 0;
      const sessions = await db.select().from(verificationSessions);
      expect(sessions.length).toBeGreaterThan(0);
      const captured = new Set(['verified', 'rejected']);
      const released = new Set(['canceled', 'expired']);
      const open = new Set(['pending', 'processing', 'requires_input']);
      const byStatus = new Map<string, number>();
      for (const session of sessions) {
        const reference = `verification_session:${session.id}`;
        expect(timesOf(reference, 'hold'), reference).toBe(1);
        expect(timesOf(reference, 'capture'), `${reference} ${session.status}`).toBe(captured.has(session.status) ? 1 : 0);
        expect(timesOf(reference, 'release'), `${reference} ${session.status}`).toBe(released.has(session.status) ? 1 : 0);
        byStatus.set(session.status, (byStatus.get(session.status) ?? 0) + 1);
      }
      // Every way a hold ends happened in the run.
      for (const status of ['verified', 'rejected', 'canceled', 'expired']) {
        expect(byStatus.get(status) ?? 0, `${status}: ${JSON.stringify([...byStatus])}`).toBeGreaterThan(0);
      }
      for (const wallet of await db.select().from(wallets)) {
        const holding = sessions.filter((session) => session.walletId === wallet.id && open.has(session.status));
        expect(wallet.heldBalance).toBe(holding.reduce((sum, session) => sum + session.price, 0));
      }

      // Payments: each succeeded top-up credited its wallet exactly once, with its amount; nothing else did.
      const paid = await db.select().from(payments).where(eq(payments.purpose, 'wallet_topup'));
      const succeeded = paid.filter((payment) => payment.status === 'succeeded');
      expect(succeeded.filter((payment) => payment.method === 'card').length).toBeGreaterThan(0);
      expect(succeeded.filter((payment) => payment.method === 'saved_method').length).toBeGreaterThan(0);
      for (const payment of paid) {
        expect(timesOf(`payment:${payment.reference}`, 'top_up'), payment.reference).toBe(payment.status === 'succeeded' ? 1 : 0);
      }
      const credited = await queryRows<{ total: number }>(
        db,
        sql`select coalesce(sum(${ledgerTransactions.amount}), 0)::int as total from ${ledgerTransactions}
            where ${ledgerTransactions.kind} = 'top_up' and ${ledgerTransactions.reference} like 'payment:%'`,
      );
      expect(credited[0]?.total).toBe(succeeded.reduce((sum, payment) => sum + payment.amount, 0));

      // Subscriptions: upgrades were charged and downgrades credited; the cached credit balance is the sum of
      // its movements, and no movement happened twice.
      const changes = await db.select().from(payments).where(eq(payments.purpose, 'mail_subscription_change'));
      expect(changes.filter((payment) => payment.status === 'succeeded').length).toBeGreaterThan(0);
      expect((await db.select().from(creditBalanceEntries)).length).toBeGreaterThan(0);
      for (const subscription of await db.select().from(mailSubscriptions)) {
        const [row] = await queryRows<{ total: number }>(
          db,
          sql`select coalesce(sum(${creditBalanceEntries.amount}), 0)::int as total from ${creditBalanceEntries}
              where ${creditBalanceEntries.organizationId} = ${subscription.organizationId}`,
        );
        expect(subscription.creditBalance).toBe(row?.total);
      }
      const changeCharges = await queryRows<{ reference: string; times: number }>(
        db,
        sql`select ${creditBalanceEntries.reference} as reference, count(*)::int as times from ${creditBalanceEntries}
            group by ${creditBalanceEntries.reference}, ${creditBalanceEntries.reason} having count(*) > 1`,
      );
      expect(changeCharges).toEqual([]);
    }, RUN_BUDGET_MS);
  },
);

/** A backend-api instance whose clock runs a day ahead, running the expiry job every 50 ms. */
async function startExpiringInstance(url: string): Promise<{ close(): Promise<void> }> {
  const database = await createDatabase({ url, maxConnections: 2 });
  const app = buildBackendApi(
    { database, now: () => new Date(Date.now() + DAY - EXPIRE_AFTER_MS) },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      VERIFICATION_EXPIRY_INTERVAL_MS: '50',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
    }),
  );
  await app.ready();
  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= app.close().then(() => database.close());
      return closed;
    },
  };
}
