import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import { memberships, organizations, payments, users } from '@platform/db/schema';
import { count } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
// The books check and fixtures of the money-invariant run: the same facts, read the same way.
import { readBooks } from '../../multi-instance/src/books.js';
import { insertMonthlySubscription, insertSandboxCard } from '../../multi-instance/src/fixtures.js';
import { useFaultHarness } from './fault-harness.js';
import { ENVELOPE } from './helpers.js';
import { type MainInstance, startMainInstance } from './main-instance.js';

// main-api when a backing server goes away: Redis (the per-user rate limit fails open, says so, and limits again
// when Redis is back) and PostgreSQL while wallet top-ups (saved cards and sandbox checkouts) and subscription
// changes run at once (503 envelopes while it is away, recovery on its own, and books that still add up after
// the clients retried with their idempotency keys). The servers are taken away from the instance with a TCP proxy.

const redisUrl = process.env.REDIS_URL;

// `reference`: the payment a multi-step operation (a checkout) started, when its last answer does not name it.
type Answer = { statusCode: number; body: string; headers: Record<string, unknown>; reference?: string };

describe.skipIf(missing(postgresServer, redisServer))(
  'main-api faults: Redis and PostgreSQL lost mid-run (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
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
      logger?: pino.Logger;
      now?: () => Date;
    }) {
      const started = await startMainInstance({
        databaseUrl: options.databaseUrl ?? url,
        redisUrl: options.redisUrl ?? redisUrl!,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...(options.now === undefined ? {} : { now: options.now }),
      });
      harness.closeAfterwards(() => started.close());
      return started;
    }

    it('serves every user without limits while Redis is away, says so in its log and metrics, and limits again when it is back', async () => {
      const redisProxy = await proxyTo(redisUrl!);
      const lines: Array<{ level: number; msg: string }> = [];
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
      );
      const main = await instance({
        redisUrl: redisProxy.urlThrough(redisUrl!),
        env: { RATE_LIMIT_PER_MINUTE: '3' },
        logger,
      });
      // A user of this run only: the budget lives in the shared Redis for a minute.
      const token = await main.tokenFor(`user_faults_${randomUUID().slice(0, 8)}`);
      const notifications = () =>
        main.app.inject({ method: 'GET', url: '/v1/notifications', headers: { authorization: `Bearer ${token}` } });
      const failures = async () => {
        const metrics = await main.app.inject({ method: 'GET', url: '/metrics' });
        return Number(/^redis_failures_total (\d+)/m.exec(metrics.body)?.[1] ?? 0);
      };
      const said = (pattern: RegExp) => lines.filter((line) => pattern.test(line.msg));

      expect([
        (await notifications()).statusCode,
        (await notifications()).statusCode,
        (await notifications()).statusCode,
      ]).toEqual([200, 200, 200]);
      expect((await notifications()).statusCode).toBe(429);
      expect(said(/not enforced/)).toEqual([]);

      await redisProxy.cut();
      const during = await Promise.all(Array.from({ length: 5 }, () => notifications()));
      expect(during.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(await failures()).toBeGreaterThanOrEqual(5);
      // One warning for the outage, not one per request.
      expect(said(/not enforced/)).toEqual([expect.objectContaining({ level: 40 })]);

      await redisProxy.restore();
      // The client reconnects on its own; the window's count was kept in Redis.
      await eventually(async () => (await notifications()).statusCode === 429);
      expect(said(/enforced again/)).toEqual([expect.objectContaining({ level: 30 })]);
    });

    it('answers 503 envelopes while PostgreSQL is away during top-ups and plan changes, recovers on its own, and pays nothing twice', async () => {
      const databaseProxy = await proxyTo(url);
      // Real time, until the test moves it past the idempotency claims the outage left behind.
      let later = 0;
      const main = await instance({
        databaseUrl: databaseProxy.urlThrough(url),
        env: { RATE_LIMIT_PER_MINUTE: '1000000' },
        now: () => new Date(Date.now() + later),
      });
      const payers = await Promise.all([0, 1, 2].map(async () => payer(main)));

      // Every request the test sends, by idempotency key, so each can be retried as a client would.
      const sent: Array<{ key: string; send: () => Promise<Answer>; answers: Answer[]; kind: string }> = [];
      const operation = (index: number) => {
        const who = payers[index % payers.length]!;
        const kind = (['top_up', 'checkout', 'change_plan'] as const)[(index + Math.floor(index / payers.length)) % 3]!;
        const key = randomUUID();
        let send: () => Promise<Answer>;
        if (kind === 'top_up') {
          send = () =>
            who.post(
              '/v1/billing/pay',
              { method: 'saved_method', amount: 100 + index, paymentMethodId: who.cardId },
              key,
            );
        } else if (kind === 'checkout') {
          send = () => who.checkout(50 + index, key);
        } else {
          // Each plan change of a payer asks for one seat more than the last: always a change, and one to pay for.
          const change = {
            newPlan: 'growth',
            newSeats: (who.seats += 1),
            newCycle: 'monthly',
            paymentMethodId: who.cardId,
          };
          send = () => who.post('/v1/billing/upgrade', change, key);
        }
        const entry = { key, send, answers: [] as Answer[], kind };
        sent.push(entry);
        return async () => {
          const answer = await send();
          entry.answers.push(answer);
          return answer;
        };
      };

      for (let index = 0; index < 9; index += 1) expect([200, 303]).toContain((await operation(index)()).statusCode);

      // Cut while a wave is in flight: each operation either finished before the cut or answered 503.
      const paidBefore = (await db.select({ paid: count() }).from(payments))[0]?.paid ?? 0;
      const wave = Promise.all(Array.from({ length: 15 }, (_, index) => operation(100 + index)()));
      await eventually(
        async () => {
          const [row] = await db.select({ paid: count() }).from(payments);
          // Requests of the wave are half-way: payments written, answers not sent yet.
          return (row?.paid ?? 0) >= paidBefore + 5;
        },
        { intervalMs: 1 },
      );
      await databaseProxy.cut();
      const cutWave = await wave;
      const during = await Promise.all(Array.from({ length: 3 }, (_, index) => operation(200 + index)()));
      for (const answer of [...cutWave, ...during]) {
        expect([200, 202, 303, 409, 503], answer.body).toContain(answer.statusCode);
        if (answer.statusCode === 503) {
          expect(JSON.parse(answer.body)).toEqual({ ...ENVELOPE, code: 'service_unavailable' });
          expect(answer.headers['retry-after']).toBe('5');
        }
      }
      expect(during.map((answer) => answer.statusCode)).toEqual(Array(3).fill(503));
      expect(cutWave.filter((answer) => answer.statusCode === 503).length).toBeGreaterThan(0);

      // Back without a restart: the pool reconnects by itself.
      await databaseProxy.restore();
      await eventually(
        async () =>
          (
            await main.app.inject({
              method: 'GET',
              url: '/v1/billing/payment-methods',
              headers: payers[0]!.headers(randomUUID()),
            })
          ).statusCode === 200,
      );

      // Clients retry what was refused, with the same keys. A request cut off mid-way could not release its key
      // while the database was away, so its retry is told the key is still in use...
      const refused = sent.filter((candidate) => candidate.answers.at(-1)?.statusCode === 503);
      for (const entry of refused) entry.answers.push(await entry.send());
      for (const answer of refused.map((entry) => entry.answers.at(-1)!)) {
        expect([200, 202, 303, 409], answer.body).toContain(answer.statusCode);
      }
      // ...until the claim counts as abandoned, a minute on. Then every request once more, and again, as a client
      // retrying later and a double click would. Each ends settled: done, or a payment named as still being
      // confirmed with the provider (the reconciliation job's to finish), or a plan change that met another one.
      later = 61_000;
      for (const round of [1, 2]) {
        for (const entry of sent) entry.answers.push(await entry.send());
        for (const entry of sent) {
          const last = entry.answers.at(-1)!;
          expect(isSettled(entry.kind, last), `round ${round}, ${entry.kind}: ${last.statusCode} ${last.body}`).toBe(
            true,
          );
        }
      }

      // One payment per idempotency key, whatever the outage did to its first try.
      for (const entry of sent.filter((candidate) => candidate.kind !== 'change_plan')) {
        const references = new Set(
          entry.answers.map(paymentReferenceOf).filter((reference) => reference !== undefined),
        );
        expect(
          references.size,
          JSON.stringify(entry.answers.map((answer) => [answer.statusCode, answer.body.slice(0, 200)])),
        ).toBe(1);
      }
      const books = await readBooks(db);
      expect(books.problems).toEqual([]);
      // The run moved money of each kind, so the books had something to add up.
      for (const kind of [
        'wallet_topup/sandbox/saved_method/succeeded',
        'wallet_topup/sandbox/card/succeeded',
        'mail_subscription_change/sandbox/saved_method/succeeded',
      ]) {
        expect(books.paymentsByKind.get(kind) ?? 0, JSON.stringify([...books.paymentsByKind])).toBeGreaterThan(0);
      }
    });

    /** The payment an answer names: a started or replayed payment, or the one a retry is told is being confirmed. */
    function paymentReferenceOf(answer: Answer): string | undefined {
      if (answer.reference !== undefined) return answer.reference;
      if (!String(answer.headers['content-type']).startsWith('application/json')) return undefined;
      const body = JSON.parse(answer.body) as { reference?: string; code?: string; error?: string };
      if (body.code === 'idempotency_key_in_use') return /PAY-[0-9a-f-]{36}/.exec(body.error ?? '')?.[0];
      return body.reference;
    }

    /** Whether an answer is one a client can rest on (anything but a refusal to retry later, or to fix). */
    function isSettled(kind: string, answer: Answer): boolean {
      if (answer.statusCode < 400) return true;
      const { code } = JSON.parse(answer.body) as { code?: string };
      if (kind === 'change_plan') return code === 'conflict';
      return code === 'idempotency_key_in_use' && paymentReferenceOf(answer) !== undefined;
    }

    /** A user who owns a fresh organization with a saved sandbox card and a monthly subscription inside its period. */
    async function payer(main: MainInstance) {
      const userId = `user_faults_${randomUUID().slice(0, 8)}`;
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Faults ${userId}`, activatedAt: new Date() })
        .returning();
      const organizationId = organization!.id;
      await db.insert(memberships).values({ organizationId, userId, role: 'owner' });
      const cardId = await insertSandboxCard(db, organizationId);
      await insertMonthlySubscription(db, organizationId, cardId, 10);
      const token = await main.tokenFor(userId);
      const headers = (key: string) => ({
        authorization: `Bearer ${token}`,
        'x-organization-id': organizationId,
        'idempotency-key': key,
      });
      const post = (path: string, payload: object, key: string): Promise<Answer> =>
        main.app.inject({ method: 'POST', url: path, headers: headers(key), payload });
      return {
        cardId,
        /** The seat count the payer's last plan change asked for. */
        seats: 5,
        headers,
        post,
        /** A top-up through the sandbox checkout: start it (or get the started one again by its key), open the page, pay. */
        async checkout(amount: number, key: string): Promise<Answer> {
          const started = await post('/v1/billing/pay', { method: 'card', amount }, key);
          if (started.statusCode !== 200) return started;
          const { checkoutUrl, reference } = JSON.parse(started.body) as { checkoutUrl: string; reference: string };
          const checkoutPath = new URL(checkoutUrl).pathname;
          const page = await main.app.inject({ method: 'GET', url: checkoutPath });
          if (page.statusCode !== 200) return { ...page, reference };
          const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
          const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
          // A checkout already paid shows that it is closed (200), and no form.
          if (csrf === undefined) return { ...page, reference };
          const paid = await main.app.inject({
            method: 'POST',
            url: checkoutPath,
            headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ csrf, action: 'pay' }).toString(),
          });
          return { ...paid, reference };
        },
      };
    }
  },
);
