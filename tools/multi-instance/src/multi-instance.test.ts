import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '@platform/api-keys';
import type { Database, DatabaseHandle } from '@platform/db';
import {
  driveFolders,
  ledgerTransactions,
  mailSubscriptionChanges,
  mailSubscriptions,
  memberships,
  organizations,
  payments,
  users,
  verificationSessions,
  wallets,
  webhookEvents,
} from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { ledgerBalances, topUpWallet } from '@platform/ledger';
import { signAccessToken } from '@platform/main-api';
import { and, eq, inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { eventually, quietPeriod } from '#test-timing';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { type Fleet, startFleet, TOKEN_AUDIENCE, TOKEN_ISSUER, urlOfDatabase } from './instances.js';

// Two instances of each service, built as server.ts builds them, each with its own database pool and Redis
// connection, on one PostgreSQL database and one Redis: what several replicas behind a load balancer share.

const MAIN_RATE_LIMIT = 6;
const KEY_RATE_LIMIT = 8;
const KYC_PRICE = 50;

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

describe.skipIf(missing(postgresServer, redisServer))(
  'two instances of each service on one PostgreSQL and one Redis (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
  () => {
    let database: DatabaseHandle;
    let db: Database;
    let fleet: Fleet;
    let receiver: CallbackReceiver;
    const redisKeys: string[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      db = database.db;
      receiver = await startCallbackReceiver();
      fleet = await startFleet({
        databaseUrl: await urlOfDatabase(database, databaseUrl!),
        redisUrl: redisUrl!,
        mainEnv: { RATE_LIMIT_PER_MINUTE: String(MAIN_RATE_LIMIT), RENEWAL_INTERVAL_MS: '50' },
        backendEnv: {
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_DELIVERY_INTERVAL_MS: '20',
          WEBHOOK_DELIVERY_BATCH_SIZE: '4',
        },
      });
    });
    afterAll(async () => {
      await fleet?.close();
      await receiver?.close();
      if (redisKeys.length > 0) await deleteRedisKeys(redisUrl!, redisKeys);
      await database?.close();
    });

    /** A fresh organization with a funded live wallet and a live key of its own (own rate-limit budget). */
    async function organizationWithKey(rateLimitPerMinute = 100_000) {
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Fleet ${randomUUID().slice(0, 8)}` })
        .returning();
      const organizationId = organization!.id;
      await db.transaction((tx) =>
        topUpWallet(
          tx,
          { organizationId, environment: 'live' },
          { amount: 100_000, reference: `fleet:${organizationId}` },
        ),
      );
      const key = await createApiKey(db, { organizationId, environment: 'live', rateLimitPerMinute });
      redisKeys.push(`backend-api:rate-limit:apikey:${key.id}`);
      return { organizationId, secret: key.secret };
    }

    const backendPost = (instance: 0 | 1, secret: string, url: string, body: object, idempotencyKey: string) =>
      fleet.backend[instance].inject({
        method: 'POST',
        url,
        headers: { 'x-service-api-key': secret, 'x-idempotency-key': idempotencyKey },
        payload: body,
      });

    it('shares a rate limit: a key’s budget spent across both backend instances ends on either', async () => {
      const { secret } = await organizationWithKey(KEY_RATE_LIMIT);
      const wallet = (instance: 0 | 1) =>
        fleet.backend[instance].inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': secret } });

      const spent: Array<Awaited<ReturnType<typeof wallet>>> = [];
      for (let index = 0; index < KEY_RATE_LIMIT; index += 1) spent.push(await wallet((index % 2) as 0 | 1));
      expect(spent.map((response) => response.statusCode)).toEqual(Array(KEY_RATE_LIMIT).fill(200));
      // Each instance reports what is left of the one budget both spend.
      expect(spent.map((response) => Number(response.headers['x-ratelimit-remaining']))).toEqual(
        Array.from({ length: KEY_RATE_LIMIT }, (_, index) => KEY_RATE_LIMIT - 1 - index),
      );
      for (const instance of [0, 1] as const) {
        const refused = await wallet(instance);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      }
    });

    it('shares a rate limit: a user’s budget spent across both main instances ends on either', async () => {
      const userId = `user_fleet_${randomUUID().slice(0, 8)}`;
      redisKeys.push(`main-api:rate-limit:user:${userId}`);
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      const token = await signAccessToken({
        secret: fleet.jwtSecret,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        subject: userId,
      });
      const me = (instance: 0 | 1) =>
        fleet.main[instance].inject({
          method: 'GET',
          url: '/v1/accounts/me',
          headers: { authorization: `Bearer ${token}` },
        });

      const statuses: number[] = [];
      for (let index = 0; index < MAIN_RATE_LIMIT; index += 1)
        statuses.push((await me((index % 2) as 0 | 1)).statusCode);
      expect(statuses).toEqual(Array(MAIN_RATE_LIMIT).fill(200));
      expect((await me(1)).statusCode).toBe(429);
      expect((await me(0)).statusCode).toBe(429);
    });

    it("records a key's last use once a minute across both backend instances, and main-api lists it", async () => {
      const userId = `user_fleet_${randomUUID().slice(0, 8)}`;
      redisKeys.push(`main-api:rate-limit:user:${userId}`);
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Keys ${userId}` })
        .returning();
      const organizationId = organization!.id;
      await db.insert(memberships).values({ organizationId, userId, role: 'member' });
      const key = await createApiKey(db, { organizationId, environment: 'live' });
      redisKeys.push(`backend-api:rate-limit:apikey:${key.id}`);
      const token = await signAccessToken({
        secret: fleet.jwtSecret,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        subject: userId,
      });
      const listed = async (instance: 0 | 1): Promise<string | null> => {
        const response = await fleet.main[instance].inject({
          method: 'GET',
          url: '/v1/api-keys',
          headers: { authorization: `Bearer ${token}`, 'x-organization-id': organizationId },
        });
        expect(response.statusCode).toBe(200);
        return (response.json() as { data: { apiKeys: Array<{ lastUsedAt: string | null }> } }).data.apiKeys[0]!
          .lastUsedAt;
      };
      const use = async (instance: 0 | 1) => {
        const response = await fleet.backend[instance].inject({
          method: 'GET',
          url: '/v1/wallet',
          headers: { 'x-service-api-key': key.secret },
        });
        expect(response.statusCode).toBe(200);
        await fleet.backend[instance].apiKeyUsage.flush();
      };

      expect(await listed(0)).toBeNull();
      const before = Date.now();
      await use(0);
      const first = await listed(1);
      expect(Date.parse(first!)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now());
      // The other instance has not recorded this key yet; its write, within the minute, changes nothing.
      await use(1);
      expect(await listed(0)).toBe(first);
    });

    it('holds idempotency across instances: one key sent to both at once creates one folder', async () => {
      const { organizationId, secret } = await organizationWithKey();
      const key = randomUUID();
      const body = { name: 'Invoices 2026' };
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          backendPost((index % 2) as 0 | 1, secret, '/v1/drive/folders', body, key),
        ),
      );

      expect(await db.$count(driveFolders, eq(driveFolders.organizationId, organizationId))).toBe(1);
      const created = responses.filter((response) => response.statusCode === 201);
      // The first request creates; the others replay its answer, or are told it is still running (409).
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 409)).toBe(true);
      expect(new Set(created.map((response) => response.json().data.id)).size).toBe(1);
      // Once the first has finished, each instance replays the same answer.
      for (const instance of [0, 1] as const) {
        const retry = await backendPost(instance, secret, '/v1/drive/folders', body, key);
        expect(retry.statusCode).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.json().data.id).toBe(created[0]!.json().data.id);
      }
    });

    it('takes no hold twice: one key sent to both instances at once creates one session and one hold', async () => {
      const { organizationId, secret } = await organizationWithKey();
      const key = randomUUID();
      const body = { type: 'kyc', externalEndUserId: 'customer-7' };
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          backendPost((index % 2) as 0 | 1, secret, '/v1/verify/sessions', body, key),
        ),
      );

      expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 409)).toBe(true);
      const sessionIds = new Set(
        responses.filter((response) => response.statusCode === 201).map((response) => response.json().data.sessionId),
      );
      expect(sessionIds.size).toBe(1);
      const sessions = await db
        .select()
        .from(verificationSessions)
        .where(eq(verificationSessions.organizationId, organizationId));
      expect(sessions.map((session) => session.id)).toEqual([...sessionIds]);

      const [wallet] = await db
        .select()
        .from(wallets)
        .where(and(eq(wallets.organizationId, organizationId), eq(wallets.environment, 'live')));
      const holds = await db
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.walletId, wallet!.id), eq(ledgerTransactions.kind, 'hold')));
      expect(holds.map((hold) => hold.reference)).toEqual([`verification_session:${sessions[0]!.id}`]);
      expect(wallet).toMatchObject({ availableBalance: 100_000 - KYC_PRICE, heldBalance: KYC_PRICE });
      expect(await ledgerBalances(db, wallet!.id)).toEqual({ available: 100_000 - KYC_PRICE, held: KYC_PRICE });
    });

    /**
     * A user who owns a fresh organization with a saved sandbox card (charged at once) and an active core
     * subscription of 5 seats inside its period; the user has a budget of MAIN_RATE_LIMIT requests.
     */
    async function payingMember() {
      const userId = `user_fleet_${randomUUID().slice(0, 8)}`;
      redisKeys.push(`main-api:rate-limit:user:${userId}`);
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Paying ${userId}` })
        .returning();
      const organizationId = organization!.id;
      await db.insert(memberships).values({ organizationId, userId, role: 'billing' });
      const cardId = await insertSandboxCard(db, organizationId);
      const subscriptionId = await insertMonthlySubscription(db, organizationId, cardId, 10);
      const token = await signAccessToken({
        secret: fleet.jwtSecret,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        subject: userId,
      });
      const post = (instance: 0 | 1, url: string, payload: object, idempotencyKey: string) =>
        fleet.main[instance].inject({
          method: 'POST',
          url,
          headers: {
            authorization: `Bearer ${token}`,
            'x-organization-id': organizationId,
            'idempotency-key': idempotencyKey,
          },
          payload,
        });
      return { organizationId, cardId, subscriptionId, post };
    }

    type Answer = Awaited<ReturnType<Awaited<ReturnType<typeof payingMember>>['post']>>;

    /**
     * Concurrent answers to one key: each is the first success, its replay (the same status and body), or
     * 409 idempotency_key_in_use while the first still runs; exactly one ran the operation.
     */
    function expectOneRunAndItsReplays(answers: Answer[]): Answer {
      const successes = answers.filter((answer) => answer.statusCode === 200);
      const firstRuns = successes.filter((answer) => answer.headers['idempotent-replayed'] === undefined);
      expect(firstRuns).toHaveLength(1);
      const first = firstRuns[0]!;
      expect(first.json()).toMatchObject({ success: true });
      for (const answer of successes) expect(answer.body).toBe(first.body);
      for (const answer of answers.filter((candidate) => candidate.statusCode !== 200)) {
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json()).toMatchObject({ success: false, code: 'idempotency_key_in_use' });
        expect(answer.headers['retry-after']).toBe('1');
      }
      return first;
    }

    it('holds idempotency across main instances: one upgrade key sent to both at once charges the card once', async () => {
      const { organizationId, cardId, subscriptionId, post } = await payingMember();
      const key = randomUUID();
      const body = { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId: cardId };
      // Two to each instance at once, then one retry to each: the user's whole budget (MAIN_RATE_LIMIT).
      const answers = await Promise.all(
        Array.from({ length: MAIN_RATE_LIMIT - 2 }, (_, index) =>
          post((index % 2) as 0 | 1, '/v1/billing/upgrade', body, key),
        ),
      );
      const first = expectOneRunAndItsReplays(answers);
      expect(first.json().message).toContain('charged to the card');

      const charges = await db
        .select()
        .from(payments)
        .where(and(eq(payments.organizationId, organizationId), eq(payments.purpose, 'mail_subscription_change')));
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({ status: 'succeeded', method: 'saved_method', paymentMethodId: cardId });
      const changes = await db
        .select()
        .from(mailSubscriptionChanges)
        .where(eq(mailSubscriptionChanges.subscriptionId, subscriptionId));
      expect(changes.map((change) => [change.status, change.amountDue])).toEqual([['applied', charges[0]!.amount]]);
      const [subscription] = await db.select().from(mailSubscriptions).where(eq(mailSubscriptions.id, subscriptionId));
      expect(subscription).toMatchObject({ plan: 'growth', seats: 25, billingCycle: 'monthly', status: 'active' });

      for (const instance of [0, 1] as const) {
        const retry = await post(instance, '/v1/billing/upgrade', body, key);
        expect(retry.statusCode).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toBe(first.body);
      }
      expect(await db.$count(payments, eq(payments.organizationId, organizationId))).toBe(1);
    });

    it('holds idempotency across main instances: one payment key sent to both at once charges the saved card once', async () => {
      const { organizationId, cardId, post } = await payingMember();
      const key = randomUUID();
      const body = { method: 'saved_method', paymentMethodId: cardId, amount: 2_500 };
      const answers = await Promise.all(
        Array.from({ length: MAIN_RATE_LIMIT - 2 }, (_, index) =>
          post((index % 2) as 0 | 1, '/v1/billing/pay', body, key),
        ),
      );
      const first = expectOneRunAndItsReplays(answers);
      expect(first.json()).toMatchObject({ message: 'Payment of KES 2,500 successful.' });

      const charges = await db.select().from(payments).where(eq(payments.organizationId, organizationId));
      expect(charges.map((charge) => [charge.reference, charge.status, charge.amount])).toEqual([
        [first.json().reference, 'succeeded', 2_500],
      ]);
      const [wallet] = await db
        .select()
        .from(wallets)
        .where(and(eq(wallets.organizationId, organizationId), eq(wallets.environment, 'live')));
      expect(wallet).toMatchObject({ availableBalance: 2_500 });
      expect(await ledgerBalances(db, wallet!.id)).toEqual({ available: 2_500, held: 0 });

      for (const instance of [0, 1] as const) {
        const retry = await post(instance, '/v1/billing/pay', body, key);
        expect(retry.statusCode).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toBe(first.body);
      }
      expect(await db.$count(payments, eq(payments.organizationId, organizationId))).toBe(1);
    });

    it('delivers each callback once while both instances’ delivery workers poll the outbox', async () => {
      const { organizationId, secret } = await organizationWithKey();
      const count = 24;
      const created = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          backendPost(
            (index % 2) as 0 | 1,
            secret,
            '/v1/verify/sessions',
            { type: 'kyc', externalEndUserId: `callback-${index}`, callbackUrl: `${receiver.url}/hooks` },
            randomUUID(),
          ),
        ),
      );
      expect(created.map((response) => response.statusCode)).toEqual(Array(count).fill(201));
      const events = await db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(eq(webhookEvents.organizationId, organizationId));
      expect(events).toHaveLength(count);
      const ids = events.map((event) => event.id);

      await eventually(async () => ids.every((id) => receiver.deliveries.has(id)));
      // Give a second (wrong) delivery time to arrive before counting.
      await quietPeriod(300);
      expect(ids.map((id) => receiver.deliveries.get(id))).toEqual(Array(count).fill(1));
      const statuses = await db
        .select({ status: webhookEvents.status })
        .from(webhookEvents)
        .where(inArray(webhookEvents.id, ids));
      expect(statuses.every((event) => event.status === 'delivered')).toBe(true);
    });

    it('charges each due mail subscription renewal once while both main instances run the renewal job', async () => {
      const count = 8;
      const subscriptionIds: string[] = [];
      for (let index = 0; index < count; index += 1) subscriptionIds.push(await dueSubscriptionWithCard(db));

      await eventually(async () => {
        const renewed = await db
          .select({ periodIndex: mailSubscriptions.periodIndex })
          .from(mailSubscriptions)
          .where(inArray(mailSubscriptions.id, subscriptionIds));
        return renewed.every((subscription) => subscription.periodIndex === 1);
      });
      // Both jobs keep polling every 50 ms: nothing more may be charged.
      await quietPeriod(300);

      const organizationIds = (
        await db
          .select({ id: mailSubscriptions.organizationId })
          .from(mailSubscriptions)
          .where(inArray(mailSubscriptions.id, subscriptionIds))
      ).map((row) => row.id);
      const charges = await db
        .select({ organizationId: payments.organizationId, status: payments.status })
        .from(payments)
        .where(
          and(inArray(payments.organizationId, organizationIds), eq(payments.purpose, 'mail_subscription_renewal')),
        );
      expect(charges).toHaveLength(count);
      expect(new Set(charges.map((charge) => charge.organizationId)).size).toBe(count);
      expect(charges.every((charge) => charge.status === 'succeeded')).toBe(true);
    });
  },
);

/** An organization whose core subscription's first monthly period has ended, with a saved sandbox card. */
async function dueSubscriptionWithCard(db: Database): Promise<string> {
  const [organization] = await db
    .insert(organizations)
    .values({ name: `Renewing ${randomUUID().slice(0, 8)}` })
    .returning();
  const organizationId = organization!.id;
  return insertMonthlySubscription(db, organizationId, await insertSandboxCard(db, organizationId), 40);
}

interface CallbackReceiver {
  url: string;
  /** Deliveries received per `webhook-id`. */
  deliveries: Map<string, number>;
  close(): Promise<void>;
}

async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const deliveries = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const id = String(request.headers['webhook-id']);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function deleteRedisKeys(url: string, keys: string[]): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
