import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import {
  driveFolders,
  ledgerTransactions,
  mailSubscriptionChanges,
  mailSubscriptions,
  memberships,
  organizations,
  payments,
  verificationSessions,
  wallets,
} from '@platform/db/schema';
import { ledgerBalances } from '@platform/ledger';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { fleetServersMissing, MAIN_RATE_LIMIT, useFleet } from './fleet-setup.js';
import type { Fleet } from './instances.js';

const KYC_PRICE = 50;

describe.skipIf(fleetServersMissing)(
  'idempotency keys shared by two instances of each service (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
  () => {
    const setup = useFleet();
    const { organizationWithKey, backendPost, signedInUser } = setup;
    let db: Database;
    let fleet: Fleet;
    beforeAll(() => ({ db, fleet } = setup));

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
      const { userId, token } = await signedInUser();
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Paying ${userId}`, activatedAt: new Date() })
        .returning();
      const organizationId = organization!.id;
      await db.insert(memberships).values({ organizationId, userId, role: 'billing' });
      const cardId = await insertSandboxCard(db, organizationId);
      const subscriptionId = await insertMonthlySubscription(db, organizationId, cardId, 10);
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
  },
);
