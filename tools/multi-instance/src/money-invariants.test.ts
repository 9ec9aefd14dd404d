import { randomInt } from 'node:crypto';
import type { Database } from '@platform/db';
import { auditEvents } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { readBooks } from './books.js';
import { type MoneyWorld, startMoneyWorld } from './money-fleets.js';
import { operationRunner } from './money-operation-runner.js';
import { operation } from './money-operations.js';

// Money invariants under load: thousands of random operations run on real PostgreSQL, CONCURRENCY at a time
// (a new one starts as soon as one ends), against two instances of each service on the sandbox providers, two
// more main-api instances on Paystack and Daraja (local fakes speaking their protocols), and a backend-api
// instance whose clock runs a day ahead and expires sessions. Top-ups by saved card, by card checkout and by
// M-Pesa; provider callbacks (signed Paystack charge.success webhooks, Daraja STK callbacks, sandbox checkout
// confirmations) each delivered two or three times at once across instances; verification sessions created,
// canceled, verified or rejected and expired; mail subscription upgrades and scheduled downgrades; duplicated requests.
// Then the books are read (books.ts). Each run draws its own schedule: the seed is printed, and MONEY_SEED (with
// MONEY_OPS) replays a run.

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const SEED =
  process.env.MONEY_SEED === undefined || process.env.MONEY_SEED === ''
    ? randomInt(2 ** 31)
    : Number(process.env.MONEY_SEED);
const OPERATIONS = Number(process.env.MONEY_OPS ?? 2_000);
const CONCURRENCY = 40;
// The whole run's budget: ample for a loaded CI machine (about 15 s when it has the machine to itself). A hang
// is caught sooner by the per-operation deadline, which names the operation.
const RUN_BUDGET_MS = Math.max(120_000, OPERATIONS * 150);

describe.skipIf(missing(postgresServer, redisServer))(
  `money invariants under ${OPERATIONS} concurrent random operations (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)`,
  () => {
    let world: MoneyWorld;
    let db: Database;
    let expirer: { close(): Promise<void> };
    let withDeadline: ReturnType<typeof operationRunner>['withDeadline'];
    let callbackAnswers: ReturnType<typeof operationRunner>['callbackAnswers'];

    beforeAll(async () => {
      // Printed first, so a failing run can be replayed whatever goes wrong later.
      console.log(`money invariants: MONEY_SEED=${SEED} MONEY_OPS=${OPERATIONS} (replay with these)`);
      world = await startMoneyWorld(databaseUrl!, redisUrl!);
      ({ db, expirer } = world);
      ({ withDeadline, callbackAnswers } = operationRunner(world, SEED));
    });
    afterAll(async () => {
      await world?.close();
    });

    it(
      'keeps every balance equal to its ledger, resolves no hold twice and applies no payment twice',
      async () => {
        const schedule = fc.sample(fc.array(operation, { minLength: OPERATIONS, maxLength: OPERATIONS }), {
          seed: SEED,
          numRuns: 1,
        })[0]!;
        const statuses = new Map<number, number>();
        const byKind = new Map<string, Map<number, number>>();
        // A pool of CONCURRENCY workers, each taking the next operation as soon as its last one is done, so the
        // load stays even instead of draining batch by batch.
        let next = 0;
        const worker = async () => {
          while (next < schedule.length) {
            const op = schedule[next++]!;
            const answers = await withDeadline(op);
            const ofKind = byKind.get(op.kind) ?? new Map<number, number>();
            for (const status of answers) {
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              ofKind.set(status, (ofKind.get(status) ?? 0) + 1);
            }
            byKind.set(op.kind, ofKind);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        // The books are read at rest: the expiring instance stops first.
        await expirer.close();

        const seen = `seed ${SEED}: ${JSON.stringify([...byKind].map(([kind, answered]) => [kind, [...answered]]))}`;
        expect(
          [...statuses].filter(([status]) => status >= 500),
          seen,
        ).toEqual([]);
        // Every Paystack webhook and M-Pesa callback was taken (200), whether it came first or as a duplicate.
        const delivered = schedule.filter((op) => op.kind !== 'checkout' && 'deliveries' in op).length * 2;
        expect([...callbackAnswers.keys()], seen).toEqual([200]);
        expect(callbackAnswers.get(200), seen).toBeGreaterThanOrEqual(delivered);
        // The run did move money: payments, holds, releases and subscription changes all happened.
        expect(statuses.get(201) ?? 0, seen).toBeGreaterThan(OPERATIONS / 20);
        expect(statuses.get(200) ?? 0, seen).toBeGreaterThan(OPERATIONS / 20);

        const books = await readBooks(db);
        expect(books.problems, `seed ${SEED}`).toEqual([]);

        // Every way a hold ends happened in the run.
        for (const status of ['verified', 'rejected', 'canceled', 'expired']) {
          expect(
            books.sessionsByStatus.get(status) ?? 0,
            `${status}: ${JSON.stringify([...books.sessionsByStatus])}`,
          ).toBeGreaterThan(0);
        }
        // Every way to pay happened, and each was applied (the books say: once).
        const payments = `seed ${SEED}: ${JSON.stringify([...books.paymentsByKind])}`;
        for (const kind of [
          'wallet_topup/sandbox/card/succeeded',
          'wallet_topup/sandbox/saved_method/succeeded',
          'wallet_topup/paystack/card/succeeded',
          'wallet_topup/paystack/saved_method/succeeded',
          'wallet_topup/daraja/mobile_money/succeeded',
          'wallet_topup/daraja/mobile_money/cancelled',
          'mail_subscription_change/sandbox/saved_method/succeeded',
        ]) {
          expect(books.paymentsByKind.get(kind) ?? 0, `${kind}, ${payments}`).toBeGreaterThan(0);
        }
        // Upgrades were charged (above) and downgrades scheduled for the period end, where the renewal applies them.
        const scheduled = await db
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(eq(auditEvents.action, 'subscription.change_scheduled'));
        expect(scheduled.length, payments).toBeGreaterThan(0);
      },
      RUN_BUDGET_MS,
    );
  },
);
