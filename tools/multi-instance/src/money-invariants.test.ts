import { randomInt, randomUUID } from 'node:crypto';
import { createApiKey } from '@platform/api-keys';
import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import { createDatabase, type Database, type DatabaseHandle } from '@platform/db';
import { auditEvents, memberships, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import { signAccessToken } from '@platform/main-api';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { accountReferenceOf } from '../../../apps/main-api/src/modules/billing/payments/reference.js';
import { PAYSTACK_WEBHOOK_PATH } from '../../../apps/main-api/src/modules/billing/providers/paystack/routes.js';
import { paystackSignature } from '../../../apps/main-api/src/modules/billing/providers/paystack/signature.js';
// The providers' stand-ins main-api's own tests use: the real Paystack and Daraja code paths run against them.
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../../../apps/main-api/test/fake-daraja.js';
import {
  FAKE_PAYSTACK_SECRET,
  type FakePaystack,
  startFakePaystack,
} from '../../../apps/main-api/test/fake-paystack.js';
import { insertSavedCard } from '../../../apps/main-api/test/subscription-fixtures.js';
import { readBooks } from './books.js';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { type Fleet, startFleet, TOKEN_AUDIENCE, TOKEN_ISSUER, urlOfDatabase } from './instances.js';

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
const MPESA_PHONE = '0712345678';

type On = 0 | 1;
type Operation =
  | { kind: 'checkout'; org: number; instance: On; amount: number; confirmations: 1 | 2 | 3 }
  | { kind: 'paystack_checkout'; org: number; instance: On; amount: number; deliveries: 2 | 3 }
  | { kind: 'paystack_charge'; org: number; instance: On; amount: number; duplicate: boolean; deliveries: 2 | 3 }
  | { kind: 'mpesa'; org: number; instance: On; amount: number; result: 0 | 1032; deliveries: 2 | 3 }
  | { kind: 'verify'; org: number; instance: On; pick: number; outcome: 'approve' | 'reject'; twice: boolean }
  | { kind: 'top_up'; org: number; instance: On; amount: number; duplicate: boolean }
  | { kind: 'create_session'; org: number; instance: On; type: 'kyc' | 'kyb'; duplicate: boolean }
  | { kind: 'cancel_session'; org: number; instance: On; pick: number; twice: boolean }
  | {
      kind: 'change_plan';
      org: number;
      instance: On;
      plan: 'core' | 'growth' | 'scale';
      seats: number;
      duplicate: boolean;
    };

const instance = fc.constantFrom<On>(0, 1);
const org = fc.nat(ORGANIZATIONS - 1);
const amount = fc.integer({ min: 1, max: 400 });
const deliveries = fc.constantFrom<2 | 3>(2, 3);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('checkout' as const),
    org,
    instance,
    amount,
    confirmations: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
  }),
  fc.record({ kind: fc.constant('paystack_checkout' as const), org, instance, amount, deliveries }),
  fc.record({
    kind: fc.constant('paystack_charge' as const),
    org,
    instance,
    amount,
    duplicate: fc.boolean(),
    deliveries,
  }),
  fc.record({
    kind: fc.constant('mpesa' as const),
    org,
    instance,
    amount,
    result: fc.constantFrom<0 | 1032>(0, 0, 1032),
    deliveries,
  }),
  fc.record({ kind: fc.constant('top_up' as const), org, instance, amount, duplicate: fc.boolean() }),
  fc.record({
    kind: fc.constant('create_session' as const),
    org,
    instance,
    type: fc.constantFrom<'kyc' | 'kyb'>('kyc', 'kyb'),
    duplicate: fc.boolean(),
  }),
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
  /** Bearer tokens for the sandbox fleet and for the provider fleet (each signs with its own secret). */
  token: string;
  providerToken: string;
  apiKey: string;
  cardId: string;
  /** A card saved with Paystack whose authorization the fake Paystack approves. */
  paystackCardId: string;
  sessions: string[];
}

describe.skipIf(missing(postgresServer, redisServer))(
  `money invariants under ${OPERATIONS} concurrent random operations (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)`,
  () => {
    let database: DatabaseHandle;
    let db: Database;
    let fleet: Fleet;
    let providerFleet: Fleet;
    let paystack: FakePaystack;
    let daraja: FakeDaraja;
    let expirer: { close(): Promise<void> };
    const orgs: Organization[] = [];

    beforeAll(async () => {
      // Printed first, so a failing run can be replayed whatever goes wrong later.
      console.log(`money invariants: MONEY_SEED=${SEED} MONEY_OPS=${OPERATIONS} (replay with these)`);
      database = await createTestDatabase();
      db = database.db;
      const url = await urlOfDatabase(database, databaseUrl!);
      fleet = await startFleet({
        databaseUrl: url,
        redisUrl: redisUrl!,
        // One sandbox checkout secret, so a checkout page served by one instance is confirmed on either.
        mainEnv: {
          RATE_LIMIT_PER_MINUTE: '1000000',
          RENEWAL_INTERVAL_MS: '0',
          SANDBOX_CHECKOUT_SECRET: HOSTED_PAGE_SECRET,
        },
        // The hosted page spends the test's one client address's budget: raised, as for main-api.
        backendEnv: {
          WEBHOOK_DELIVERY_ENABLED: 'false',
          // Live sessions are moved with the hosted page's sandbox buttons here.
          HOSTED_PAGE_LIVE_SANDBOX: 'true',
          VERIFICATION_DECISIONS: 'live:*=sandbox',
          HOSTED_PAGE_SECRET,
          RATE_LIMIT_PER_MINUTE: '1000000',
        },
        maxConnections: 2,
      });
      paystack = await startFakePaystack();
      daraja = await startFakeDaraja();
      // Its two main-api instances take card payments through Paystack and M-Pesa through Daraja; its backends
      // stand by (a fleet is one of each pair), with the smallest pools.
      providerFleet = await startFleet({
        databaseUrl: url,
        redisUrl: redisUrl!,
        mainEnv: {
          RATE_LIMIT_PER_MINUTE: '1000000',
          RENEWAL_INTERVAL_MS: '0',
          PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
          PAYSTACK_BASE_URL: paystack.url,
          ...fakeDarajaEnv(daraja.url),
        },
        backendEnv: { WEBHOOK_DELIVERY_ENABLED: 'false' },
        maxConnections: 2,
      });
      expirer = await startExpiringInstance(url);
      for (let index = 0; index < ORGANIZATIONS; index += 1) orgs.push(await organization(index));
    });
    afterAll(async () => {
      await expirer?.close();
      await providerFleet?.close();
      await fleet?.close();
      await paystack?.close();
      await daraja?.close();
      await database?.close();
    });

    async function organization(index: number): Promise<Organization> {
      const [row] = await db
        .insert(organizations)
        .values({ name: `Ledger ${index} ${randomUUID().slice(0, 6)}` })
        .returning();
      const id = row!.id;
      const userId = `user_money_${randomUUID().slice(0, 8)}`;
      await db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      await db.insert(memberships).values({ organizationId: id, userId, role: 'owner' });
      await db.transaction((tx) =>
        topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: SEED_FUNDS, reference: `seed:${id}` }),
      );
      const { secret } = await createApiKey(db, {
        organizationId: id,
        environment: 'live',
        rateLimitPerMinute: 1_000_000,
      });
      const cardId = await insertSandboxCard(db, id);
      const authorizationCode = `AUTH_money_${randomUUID().slice(0, 8)}`;
      paystack.approvedAuthorizations.add(authorizationCode);
      const paystackCardId = await insertSavedCard(db, id, { provider: 'paystack', authorizationCode });
      // A monthly core subscription in the middle of its period.
      await insertMonthlySubscription(db, id, cardId, 10);
      const sign = (secretOf: Fleet) =>
        signAccessToken({
          secret: secretOf.jwtSecret,
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          subject: userId,
        });
      return {
        id,
        token: await sign(fleet),
        providerToken: await sign(providerFleet),
        apiKey: secret,
        cardId,
        paystackCardId,
        sessions: [],
      };
    }

    const mainRequest = (
      target: Organization,
      on: On,
      url: string,
      body: object,
      key: string,
      through: 'sandbox' | 'providers' = 'sandbox',
    ) =>
      (through === 'sandbox' ? fleet : providerFleet).main[on].inject({
        method: 'POST',
        url,
        headers: {
          authorization: `Bearer ${through === 'sandbox' ? target.token : target.providerToken}`,
          'x-organization-id': target.id,
          'idempotency-key': key,
        },
        payload: body,
      });
    const backendRequest = (target: Organization, on: On, url: string, body: object | undefined, key: string) =>
      fleet.backend[on].inject({
        method: 'POST',
        url,
        headers: { 'x-service-api-key': target.apiKey, 'x-idempotency-key': key },
        ...(body === undefined ? {} : { payload: body }),
      });
    /** Instance `first`, then the other, and so on: `times` of them. */
    const alternating = (first: On, times: number) =>
      Array.from({ length: times }, (_, index) => ((first + index) % 2) as On);

    // The answers to Paystack's webhooks and Daraja's callbacks, counted by status.
    const callbackAnswers = new Map<number, number>();
    const callbacksAnswered = (responses: Array<{ statusCode: number }>) => {
      for (const { statusCode } of responses)
        callbackAnswers.set(statusCode, (callbackAnswers.get(statusCode) ?? 0) + 1);
      return responses;
    };

    /** Paystack's signed charge.success for `reference`, posted `times` at once, alternately to both provider instances. */
    async function paystackWebhooks(reference: string, first: On, times: number) {
      const body = paystack.chargeSuccessEvent(reference);
      const signature = paystackSignature(Buffer.from(body), FAKE_PAYSTACK_SECRET);
      const answers = await Promise.all(
        alternating(first, times).map((on) =>
          providerFleet.main[on].inject({
            method: 'POST',
            url: PAYSTACK_WEBHOOK_PATH,
            headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
            payload: body,
          }),
        ),
      );
      return callbacksAnswered(answers);
    }

    /** Runs one operation (duplicated where it says so); returns every answer's status. */
    async function run(op: Operation): Promise<number[]> {
      const target = orgs[op.org]!;
      const other = (op.instance === 0 ? 1 : 0) as On;
      const key = randomUUID();
      switch (op.kind) {
        case 'checkout': {
          // A card top-up through the hosted sandbox checkout, whose Pay confirmation arrives 1 to 3 times at
          // once on both instances.
          const started = await mainRequest(
            target,
            op.instance,
            '/v1/billing/pay',
            { method: 'card', amount: op.amount },
            key,
          );
          if (started.statusCode !== 200) return [started.statusCode];
          const checkoutPath = new URL((started.json() as { checkoutUrl: string }).checkoutUrl).pathname;
          const page = await fleet.main[op.instance].inject({ method: 'GET', url: checkoutPath });
          const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
          const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
          const confirmations = await Promise.all(
            alternating(op.instance, op.confirmations).map((on) =>
              fleet.main[on].inject({
                method: 'POST',
                url: checkoutPath,
                headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
                payload: new URLSearchParams({ csrf, action: 'pay' }).toString(),
              }),
            ),
          );
          return [started.statusCode, page.statusCode, ...confirmations.map((response) => response.statusCode)];
        }
        case 'paystack_checkout': {
          // A card top-up through Paystack's checkout: the customer pays there, and Paystack's signed
          // charge.success webhook arrives 2 or 3 times at once.
          const started = await mainRequest(
            target,
            op.instance,
            '/v1/billing/pay',
            { method: 'card', amount: op.amount },
            key,
            'providers',
          );
          if (started.statusCode !== 200) return [started.statusCode];
          const { reference } = started.json() as { reference: string };
          paystack.completeCheckout(reference);
          const webhooks = await paystackWebhooks(reference, op.instance, op.deliveries);
          return [started.statusCode, ...webhooks.map((response) => response.statusCode)];
        }
        case 'paystack_charge': {
          // A saved Paystack card charged (the request itself maybe sent twice with one idempotency key), then
          // the charge.success Paystack also sends for it, 2 or 3 times at once.
          const body = { method: 'saved_method', amount: op.amount, paymentMethodId: target.paystackCardId };
          const sends = [mainRequest(target, op.instance, '/v1/billing/pay', body, key, 'providers')];
          if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/pay', body, key, 'providers'));
          const answers = await Promise.all(sends);
          const paid = answers.find((response) => response.statusCode === 200);
          if (paid === undefined) return answers.map((response) => response.statusCode);
          const { reference } = paid.json() as { reference: string };
          const webhooks = await paystackWebhooks(reference, op.instance, op.deliveries);
          return [...answers, ...webhooks].map((response) => response.statusCode);
        }
        case 'mpesa': {
          // An M-Pesa prompt the customer answers (paid or cancelled), whose result Daraja calls back 2 or 3 times
          // at once to the real callback route of both provider instances.
          const started = await mainRequest(
            target,
            op.instance,
            '/v1/billing/pay',
            { method: 'mobile_money', amount: op.amount, phone: MPESA_PHONE },
            key,
            'providers',
          );
          if (started.statusCode !== 200) return [started.statusCode];
          const { reference } = started.json() as { reference: string };
          const prompt = [...daraja.prompts.values()].find(
            (candidate) => candidate.accountReference === accountReferenceOf(reference),
          );
          if (prompt === undefined) throw new Error(`seed ${SEED}: Daraja received no prompt for ${reference}`);
          daraja.answer(prompt.checkoutRequestId, op.result);
          const callbackPath = new URL(prompt.callbackUrl).pathname;
          const payload = daraja.callbackBody(prompt.checkoutRequestId);
          const callbacks = callbacksAnswered(
            await Promise.all(
              alternating(op.instance, op.deliveries).map((on) =>
                providerFleet.main[on].inject({ method: 'POST', url: callbackPath, payload }),
              ),
            ),
          );
          return [started.statusCode, ...callbacks.map((response) => response.statusCode)];
        }
        case 'top_up': {
          const body = { method: 'saved_method', amount: op.amount, paymentMethodId: target.cardId };
          const sends = [mainRequest(target, op.instance, '/v1/billing/pay', body, key)];
          if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/pay', body, key));
          return (await Promise.all(sends)).map((response) => response.statusCode);
        }
        case 'create_session': {
          const body = { type: op.type, externalEndUserId: `end-user-${key.slice(0, 8)}` };
          const sends = [backendRequest(target, op.instance, '/v1/verify/sessions', body, key)];
          if (op.duplicate) sends.push(backendRequest(target, other, '/v1/verify/sessions', body, key));
          const answers = await Promise.all(sends);
          const created = answers.find((response) => response.statusCode === 201);
          if (created !== undefined)
            target.sessions.push((created.json() as { data: { sessionId: string } }).data.sessionId);
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
          if (token === undefined) return [page.statusCode]; // finished or expired: no form
          const act = (on: On, action: string) =>
            fleet.backend[on].inject({
              method: 'POST',
              url: `/session/${id}`,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ token, action }).toString(),
            });
          await act(op.instance, 'agree'); // the consent notice comes first (recorded once, however often)
          const submitted = await act(op.instance, 'submit');
          const decided = await Promise.all(
            op.twice ? [act(op.instance, op.outcome), act(other, op.outcome)] : [act(op.instance, op.outcome)],
          );
          return [page.statusCode, submitted.statusCode, ...decided.map((response) => response.statusCode)];
        }
        case 'change_plan': {
          const body = { newPlan: op.plan, newSeats: op.seats, newCycle: 'monthly', paymentMethodId: target.cardId };
          const sends = [mainRequest(target, op.instance, '/v1/billing/upgrade', body, key)];
          if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/upgrade', body, randomUUID()));
          return (await Promise.all(sends)).map((response) => response.statusCode);
        }
      }
    }

    /** run(), failing with the operation's description if it has not finished in time (instead of a silent hang). */
    async function withDeadline(op: Operation): Promise<number[]> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`seed ${SEED}: unfinished after ${OPERATION_DEADLINE_MS} ms: ${JSON.stringify(op)}`)),
          OPERATION_DEADLINE_MS,
        );
      });
      try {
        return await Promise.race([run(op), deadline]);
      } finally {
        clearTimeout(timer);
      }
    }

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
