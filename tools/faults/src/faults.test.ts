import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import {
  ledgerTransactions,
  organizations,
  verificationSessions,
  wallets,
  webhookDeliveryAttempts,
  webhookEvents,
} from '@platform/db/schema';
import { ledgerBalances, topUpWallet } from '@platform/ledger';
import { and, between, count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { type BackendInstance, startBackendInstance } from './backend-instance.js';
import { useFaultHarness } from './fault-harness.js';
import { ENVELOPE } from './helpers.js';

// Faults a deployment meets: Redis or PostgreSQL going away while requests run, and an instance dying in the
// middle of an idempotent request or of a callback delivery. Servers are taken away from one instance with a
// TCP proxy (the real servers are shared with other suites); an instance "dies" when its connections are cut
// and it is dropped without a graceful close.

const redisUrl = process.env.REDIS_URL;
const KYC_PRICE = 50;

describe.skipIf(missing(postgresServer, redisServer))(
  'faults: servers lost mid-run and instances killed mid-request (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
  () => {
    const harness = useFaultHarness();
    const { proxyTo } = harness;
    let db: Database;
    let url: string;
    beforeAll(() => {
      ({ db, url } = harness);
    });

    async function instance(options: {
      databaseUrl?: string;
      redisUrl?: string;
      env?: NodeJS.ProcessEnv;
      now?: () => Date;
    }) {
      const started = await startBackendInstance({
        databaseUrl: options.databaseUrl ?? url,
        redisUrl: options.redisUrl ?? redisUrl!,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.now === undefined ? {} : { now: options.now }),
      });
      harness.closeAfterwards(() => started.kill());
      return started;
    }

    /** A fresh organization with a funded live wallet and a live key of its own (limited only when asked). */
    async function organizationWithKey(rateLimitPerMinute = 100_000) {
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Faults ${randomUUID().slice(0, 8)}`, activatedAt: new Date() })
        .returning();
      const organizationId = organization!.id;
      await db.transaction((tx) =>
        topUpWallet(
          tx,
          { organizationId, environment: 'live' },
          { amount: 10_000, reference: `faults:${organizationId}` },
        ),
      );
      const key = await createApiKey(db, { organizationId, environment: 'live', rateLimitPerMinute });
      return { organizationId, secret: key.secret };
    }

    const createSession = (on: BackendInstance, secret: string, body: object, idempotencyKey?: string) =>
      on.app.inject({
        method: 'POST',
        url: '/v1/verify/sessions',
        headers: {
          'x-service-api-key': secret,
          ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
        },
        payload: body,
      });

    /** The wallet's balances as stored, as its ledger sums them, and its sessions and their holds. */
    async function moneyOf(organizationId: string) {
      const [wallet] = await db
        .select()
        .from(wallets)
        .where(and(eq(wallets.organizationId, organizationId), eq(wallets.environment, 'live')));
      const sessions = await db
        .select()
        .from(verificationSessions)
        .where(eq(verificationSessions.organizationId, organizationId));
      const holds = await db
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.walletId, wallet!.id), eq(ledgerTransactions.kind, 'hold')));
      return {
        stored: { available: wallet!.availableBalance, held: wallet!.heldBalance },
        ledger: await ledgerBalances(db, wallet!.id),
        sessions,
        holds,
      };
    }

    it('goes on serving when Redis goes away, without limits, says so, and limits again when it is back', async () => {
      const redisProxy = await proxyTo(redisUrl!);
      const backend = await instance({ redisUrl: redisProxy.urlThrough(redisUrl!) });
      const { secret } = await organizationWithKey(3);
      const wallet = () =>
        backend.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': secret } });
      const failures = async () => {
        const metrics = await backend.app.inject({ method: 'GET', url: '/metrics' });
        return Number(/^redis_failures_total (\d+)/m.exec(metrics.body)?.[1] ?? 0);
      };

      expect([(await wallet()).statusCode, (await wallet()).statusCode, (await wallet()).statusCode]).toEqual([
        200, 200, 200,
      ]);
      expect((await wallet()).statusCode).toBe(429);

      await redisProxy.cut();
      const during = await Promise.all(Array.from({ length: 5 }, () => wallet()));
      expect(during.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(await failures()).toBeGreaterThanOrEqual(5);
      const ready = await backend.app.inject({ method: 'GET', url: '/readyz' });
      // Ready but degraded: Redis is reported down, and the instance stays behind the load balancer.
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });

      await redisProxy.restore();
      // The client reconnects on its own; the window's count was kept in Redis.
      await eventually(async () => (await wallet()).statusCode === 429);
    });

    it('answers 503 envelopes while PostgreSQL is away, writes no half a movement, and a retry with the same key settles each create once', async () => {
      const databaseProxy = await proxyTo(url);
      // Real time until the test moves the clock past the claims the cut left behind.
      let movedTo: number | undefined;
      const backend = await instance({
        databaseUrl: databaseProxy.urlThrough(url),
        now: () => new Date(movedTo ?? Date.now()),
      });
      const { organizationId, secret } = await organizationWithKey();
      const create = (externalEndUserId: string, idempotencyKey?: string) =>
        createSession(backend, secret, { type: 'kyc', externalEndUserId }, idempotencyKey);

      const before = await Promise.all(Array.from({ length: 10 }, (_, index) => create(`before-${index}`)));
      expect(before.map((response) => response.statusCode)).toEqual(Array(10).fill(201));

      // Cut once the first of a wave of creations (each with its own idempotency key) has committed, the rest in flight.
      const waveKeys = Array.from({ length: 60 }, () => randomUUID());
      const wave = Promise.all(waveKeys.map((key, index) => create(`wave-${index}`, key)));
      await eventually(
        async () => {
          const [row] = await db
            .select({ created: count() })
            .from(verificationSessions)
            .where(
              and(
                eq(verificationSessions.organizationId, organizationId),
                like(verificationSessions.externalEndUserId, 'wave-%'),
              ),
            );
          return (row?.created ?? 0) > 0;
        },
        { intervalMs: 1 },
      );
      await databaseProxy.cut();
      const cutWave = await wave;
      const during = await Promise.all(Array.from({ length: 5 }, (_, index) => create(`during-${index}`)));
      for (const response of [...cutWave, ...during]) {
        expect([201, 503]).toContain(response.statusCode);
        if (response.statusCode === 503) {
          expect(response.json()).toEqual({ ...ENVELOPE, code: 'service_unavailable' });
          expect(response.headers['retry-after']).toBe('5');
        }
      }
      expect(during.map((response) => response.statusCode)).toEqual(Array(5).fill(503));

      await databaseProxy.restore();
      await eventually(async () => (await create('after')).statusCode === 201);

      // Whatever the cut interrupted left all of a create or nothing of it.
      const afterOutage = await moneyOf(organizationId);
      expect(afterOutage.ledger).toEqual(afterOutage.stored);
      expect(afterOutage.holds).toHaveLength(afterOutage.sessions.length);
      // Refused at once while the database was away: nothing of them was written.
      expect(afterOutage.sessions.filter((session) => session.externalEndUserId.startsWith('during-'))).toEqual([]);
      // A create the database committed whose answer the cut lost was answered 503: its outcome is unknown to the
      // client, which is why it retries with the same key (docs/decisions.md#database-outages-are-503).
      const answered = [...before, ...cutWave].filter((response) => response.statusCode === 201).length;
      const committedUnanswered = afterOutage.sessions.length - answered - 1;
      expect(committedUnanswered).toBeGreaterThanOrEqual(0);

      // The claims of interrupted requests are taken over once their lock has expired (60 s).
      movedTo = Date.now() + 61_000;
      // Each create of the wave as it ends for its client: its first answer, or its retry's when that was a 503.
      const settled = await Promise.all(
        cutWave.map((response, index) =>
          response.statusCode === 503 ? create(`wave-${index}`, waveKeys[index]) : response,
        ),
      );
      const retries = settled.filter((_, index) => cutWave[index]!.statusCode === 503);
      expect(retries.map((response) => response.statusCode)).toEqual(Array(retries.length).fill(201));
      const replayed = retries.filter((response) => response.headers['idempotent-replayed'] === 'true');
      expect(replayed).toHaveLength(committedUnanswered);

      const money = await moneyOf(organizationId);
      expect(money.ledger).toEqual(money.stored);
      expect(money.holds).toHaveLength(money.sessions.length);
      expect(money.stored.held).toBe(KYC_PRICE * money.sessions.length);
      expect(money.stored.available + money.stored.held).toBe(10_000);
      // Every create of the wave ended with exactly one session, whether it committed before or after the cut.
      expect(money.sessions).toHaveLength(10 + 60 + 1);
      const waveIds = new Set(
        settled.map((response) => (response.json() as { data: { sessionId: string } }).data.sessionId),
      );
      expect(waveIds.size).toBe(60);
      const stored = new Set(money.sessions.map((session) => session.id));
      for (const id of waveIds) expect(stored.has(id)).toBe(true);
    });

    it('answers every request waiting for PostgreSQL with a 503 while it is away, not one per reconnection attempt', async () => {
      const databaseProxy = await proxyTo(url);
      const backend = await instance({ databaseUrl: databaseProxy.urlThrough(url) });
      const { secret } = await organizationWithKey();
      const wallet = () =>
        backend.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': secret } });
      expect((await wallet()).statusCode).toBe(200);

      await databaseProxy.cut();
      // The outage lasts OUTAGE_MS. Each wave of requests queues for the pool's two connections; every request
      // must have its 503 before the outage ends. (Before postgres.js was patched to fail the waiting queries
      // with a failed connection attempt, each attempt answered one request, and attempts back off to one a
      // second per connection: 60 requests took about 30 s.) A second wave, sent after the first was answered,
      // starts new attempts and is answered the same way. What tells the two apart is how many reconnection
      // attempts (each a second of back-off) a wave needs, not how fast the machine is: the outage is half the
      // faulty 30 s, many times what the fixed waves need even on a loaded machine.
      const OUTAGE_MS = 15_000;
      let timer: NodeJS.Timeout | undefined;
      const outageOver = new Promise<'outage over'>(
        (resolve) => (timer = setTimeout(() => resolve('outage over'), OUTAGE_MS)),
      );
      try {
        for (const size of [60, 60]) {
          const answers = await Promise.race([Promise.all(Array.from({ length: size }, () => wallet())), outageOver]);
          if (answers === 'outage over')
            throw new Error(`A wave of ${size} requests was not all answered during the outage`);
          expect(answers.map((response) => response.statusCode)).toEqual(Array(size).fill(503));
          for (const response of answers) expect(response.json()).toEqual({ ...ENVELOPE, code: 'service_unavailable' });
        }
      } finally {
        clearTimeout(timer);
      }

      await databaseProxy.restore();
      await eventually(async () => (await wallet()).statusCode === 200);
      const after = await Promise.all(Array.from({ length: 20 }, () => wallet()));
      expect(after.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    });

    it('lets a retry succeed exactly once after an instance died holding the idempotency key', async () => {
      const databaseProxy = await proxyTo(url);
      const dying = await instance({ databaseUrl: databaseProxy.urlThrough(url) });
      // The survivor runs on real time until the test moves its clock past the dead owner's lock.
      let movedTo: number | undefined;
      const survivor = await instance({ now: () => new Date(movedTo ?? Date.now()) });
      const { organizationId, secret } = await organizationWithKey();
      const key = randomUUID();
      const body = { type: 'kyc', externalEndUserId: 'killed-mid-request' };

      // The instance claims the key, then dies just as it sends the session's INSERT.
      const killedAt = databaseProxy.freezeWhen('insert into "verification_sessions"');
      const lost = createSession(dying, secret, body, key).catch(() => undefined);
      await killedAt;
      await databaseProxy.cut();
      await dying.kill();
      await lost;

      const early = await createSession(survivor, secret, body, key);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ ...ENVELOPE, code: 'idempotency_key_in_use' });
      expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);

      movedTo = Date.now() + 61_000; // the dead owner's lock (taken moments ago) has expired
      const retried = await createSession(survivor, secret, body, key);
      expect(retried.statusCode).toBe(201);
      const replayed = await createSession(survivor, secret, body, key);
      expect(replayed.statusCode).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.json()).toEqual(retried.json());

      const money = await moneyOf(organizationId);
      expect(money.sessions).toHaveLength(1);
      expect(money.holds).toHaveLength(1);
      expect(money.ledger).toEqual(money.stored);
    });

    it('delivers a callback after the instance delivering it died, under the same webhook-id', async () => {
      const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
      let firstArrived: () => void = () => undefined;
      const firstDelivery = new Promise<void>((resolve) => (firstArrived = resolve));
      const receiver: Server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          received.push({ headers: request.headers, body });
          firstArrived();
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      harness.closeAfterwards(() => new Promise((resolve) => receiver.close(() => resolve())));
      const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

      const { organizationId, secret } = await organizationWithKey();
      const delivering = {
        WEBHOOK_DELIVERY_ENABLED: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DELIVERY_INTERVAL_MS: '20',
      };
      const databaseProxy = await proxyTo(url);
      const dying = await instance({ databaseUrl: databaseProxy.urlThrough(url), env: delivering });
      const created = await createSession(dying, secret, {
        type: 'kyc',
        externalEndUserId: 'callback-kill',
        callbackUrl,
      });
      expect(created.statusCode).toBe(201);

      // The callback reaches the customer, and the instance dies before it can record that.
      await firstDelivery;
      await databaseProxy.cut();
      await dying.kill();
      const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.organizationId, organizationId));
      expect(event?.status).not.toBe('delivered');

      // A restarted instance, once the dead one's lease is over, delivers it again and records it once.
      let clock = Date.now() + 61_000;
      await instance({ env: delivering, now: () => new Date((clock += 10)) });
      const delivered = await eventually(async () => {
        const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event!.id));
        return row?.status === 'delivered' ? row : undefined;
      });
      expect(delivered.id).toBe(event!.id);
      const successes = await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(
          and(
            eq(webhookDeliveryAttempts.eventId, event!.id),
            between(webhookDeliveryAttempts.responseStatus, 200, 299),
          ),
        );
      expect(successes).toHaveLength(1);
      // At least once for the customer, deduplicated by the webhook-id both deliveries carry.
      expect(received.length).toBeGreaterThanOrEqual(2);
      expect(new Set(received.map((delivery) => delivery.headers['webhook-id']))).toEqual(new Set([event!.id]));
    });
  },
);
