import { queryRows } from '@platform/db';
import { ledgerTransactions, wallets } from '@platform/db/schema';
import { ensureWallet } from '@platform/ledger';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import {
  countSessions,
  createdSessionId,
  createSessionRequest,
  eventTypesOf,
  fundWallet,
  holdMovements,
  statusOf,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';
import { expireDueSessions } from './expiry.js';

const HOUR = 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const KYC_PRICE = 50;

describe.skipIf(missing(postgresServer))(
  'verification sessions under concurrency (needs PostgreSQL: set DATABASE_URL; PGlite runs one statement at a time)',
  () => {
    const suite = useTestApp({ maxConnections: 20 });
    const { clock } = suite;
    let acme: TestOrganization;

    beforeEach(async () => {
      clock.set(TEST_START);
      await truncateVerificationData(suite.db);
      [acme] = await replaceOrganizations(suite.db, 'Acme');
    });

    const cancel = (id: string, idempotencyKey: string) =>
      suite.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/cancel`,
        headers: { 'x-service-api-key': acme.liveKey, 'x-idempotency-key': idempotencyKey },
      });

    const testDecision = (id: string, body: object, idempotencyKey: string) =>
      suite.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/test-decision`,
        headers: { 'x-service-api-key': acme.testKey, 'x-idempotency-key': idempotencyKey },
        payload: body,
      });

    const expectLedgerToAgree = async () => {
      const wallet = await walletState(suite.db, acme.id, 'live');
      expect(wallet.ledger).toEqual({ available: wallet.available, held: wallet.held });
      return wallet;
    };

    it('with money for exactly N sessions, 3N simultaneous creates give N sessions and 2N answers of 402', async () => {
      const n = 10;
      await fundWallet(suite.db, acme.id, 'live', n * KYC_PRICE);
      const responses = await Promise.all(
        Array.from({ length: 3 * n }, (_, index) =>
          createSessionRequest(
            suite.app,
            acme.liveKey,
            { type: 'kyc', externalEndUserId: `rush-${index}` },
            `rush-${index}`,
          ),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(n);
      expect(statuses.filter((status) => status === 402)).toHaveLength(2 * n);
      for (const refused of responses.filter((response) => response.statusCode === 402)) {
        expect(refused.json().code).toBe('insufficient_funds');
      }
      expect(await countSessions(suite.db)).toBe(n);
      expect(await suite.db.$count(ledgerTransactions, eq(ledgerTransactions.kind, 'hold'))).toBe(n);
      expect(await expectLedgerToAgree()).toMatchObject({ available: 0, held: n * KYC_PRICE });
    });

    /**
     * How many times each of the wallet's holds was resolved (captured or released), by hold reference. The
     * ledger's unique (kind, reference) stops a second release, not a capture after a release: this counts both.
     */
    const resolutionsPerHold = async () => {
      const rows = await queryRows<{ reference: string; resolutions: number }>(
        suite.db,
        sql`select hold.reference, count(resolution.id)::int as resolutions
            from ${ledgerTransactions} hold
            left join ${ledgerTransactions} resolution
              on resolution.reference = hold.reference and resolution.kind in ('capture', 'release')
            where hold.kind = 'hold'
            group by hold.reference`,
      );
      return rows.map((row) => row.resolutions);
    };

    /**
     * Locks acme's live wallet from a connection of its own until release() is called. Both the expiry job and a
     * cancel lock the wallet to release the hold, after they have changed the session's status: holding it
     * stops whichever comes first in the middle of its move, still holding the session row.
     */
    async function lockWallet() {
      const wallet = await ensureWallet(suite.db, { organizationId: acme.id, environment: 'live' });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = suite.db.transaction(async (tx) => {
        await tx.select({ id: wallets.id }).from(wallets).where(eq(wallets.id, wallet.id)).for('update');
        locked();
        await released;
      });
      await Promise.race([isLocked, holder]);
      return {
        release: async () => {
          release();
          await holder;
        },
      };
    }

    /**
     * Resolves true once another connection waits for a lock in a statement matching `pattern` (SQL LIKE); false
     * if `signal` aborts first; throws after EVENTUALLY_TIMEOUT_MS.
     */
    async function untilWaitingForLock(pattern: string, signal?: AbortSignal): Promise<boolean> {
      const deadline = Date.now() + EVENTUALLY_TIMEOUT_MS;
      while (signal?.aborted !== true) {
        const rows = await queryRows<{ query: string; matches: boolean }>(
          suite.db,
          sql`select query, query like ${pattern} as matches from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        );
        if (rows.some((row) => row.matches)) return true;
        if (Date.now() > deadline) {
          throw new Error(`No statement like ${pattern} waited for a lock; waiting: ${JSON.stringify(rows)}`);
        }
        await sleep(10);
      }
      return false;
    }

    it('the expiry job claims a session first: a cancel waits for it, then gets 409, and the hold is released once', async () => {
      await fundWallet(suite.db, acme.id, 'live', KYC_PRICE);
      const id = await createdSessionId(suite.app, acme.liveKey);
      const due = new Date(clock.now().getTime() + 24 * HOUR);
      const wallet = await lockWallet();
      let job: Promise<number> | undefined;
      let canceling: ReturnType<typeof cancel> | undefined;
      try {
        job = expireDueSessions(suite.db, due, {});
        // The job has claimed the session and marked it expired, and now waits for the wallet.
        await untilWaitingForLock('%update "wallets"%');
        canceling = cancel(id, 'cancel-behind-the-job');
        // The cancel's move waits for the job's lock on the session row, then finds it expired.
        await untilWaitingForLock('%update "verification_sessions"%');
      } finally {
        await wallet.release();
      }
      const [expired, canceled] = await Promise.all([job, canceling]);
      expect(expired).toBe(1);
      expect(canceled!.statusCode).toBe(409);
      expect(canceled!.json().error).toBe('Cannot move a verification session from expired to canceled');
      expect(await statusOf(suite.db, id)).toBe('expired');
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await resolutionsPerHold()).toEqual([1]);
      expect(await expectLedgerToAgree()).toMatchObject({ available: KYC_PRICE, held: 0 });
    });

    it('a cancel moves a session first: the expiry job passes over the locked row, and the hold is released once', async () => {
      await fundWallet(suite.db, acme.id, 'live', KYC_PRICE);
      const id = await createdSessionId(suite.app, acme.liveKey);
      const due = new Date(clock.now().getTime() + 24 * HOUR);
      const wallet = await lockWallet();
      let canceling: ReturnType<typeof cancel> | undefined;
      try {
        canceling = cancel(id, 'cancel-before-the-job');
        // The cancel has marked the session canceled and now waits for the wallet.
        await untilWaitingForLock('%update "wallets"%');
        // Meanwhile the job finds the session due but locked, and passes over it (SKIP LOCKED) without waiting;
        // a job that waited for the row would wait for the cancel, which waits for the wallet: seen as blocked.
        const job = expireDueSessions(suite.db, due, {});
        const watching = new AbortController();
        const blocked = untilWaitingForLock('%"verification_sessions"%for %update%', watching.signal).then(
          () => 'blocked',
        );
        try {
          expect(await Promise.race([job, blocked])).toBe(0);
        } finally {
          watching.abort();
          await blocked;
        }
      } finally {
        await wallet.release();
      }
      const canceled = await canceling;
      expect(canceled!.statusCode).toBe(200);
      expect(canceled!.json().data.status).toBe('canceled');
      // Once the cancel has committed the session is no longer due.
      expect(await expireDueSessions(suite.db, due, {})).toBe(0);
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await resolutionsPerHold()).toEqual([1]);
      expect(await expectLedgerToAgree()).toMatchObject({ available: KYC_PRICE, held: 0 });
    });

    it('when the expiry job and cancels race freely, each session ends one way and each hold is resolved once', async () => {
      const rounds = 16;
      await fundWallet(suite.db, acme.id, 'live', rounds * KYC_PRICE);
      for (let round = 0; round < rounds; round += 1) {
        const id = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `race-${round}` });
        const due = new Date(clock.now().getTime() + 24 * HOUR);
        // Unforced timing (the two tests above force each order): the job starts a little later in some rounds.
        const [expired, canceled] = await Promise.all([
          sleep(round % 8).then(() => expireDueSessions(suite.db, due, {})),
          cancel(id, `cancel-${round}`),
        ]);
        const status = await statusOf(suite.db, id);
        if (status === 'expired') expect([expired, canceled.statusCode]).toEqual([1, 409]);
        else expect([status, expired, canceled.statusCode]).toEqual(['canceled', 0, 200]);
      }
      expect(await resolutionsPerHold()).toEqual(Array.from({ length: rounds }, () => 1));
      expect(await expectLedgerToAgree()).toMatchObject({ available: rounds * KYC_PRICE, held: 0 });
    });

    it('several expiry jobs at once expire each due session exactly once', async () => {
      const sessions = 30;
      await fundWallet(suite.db, acme.id, 'live', sessions * KYC_PRICE);
      const ids: string[] = [];
      for (let index = 0; index < sessions; index += 1) {
        ids.push(await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `batch-${index}` }));
      }
      const due = new Date(clock.now().getTime() + 24 * HOUR);
      const counts = await Promise.all(
        Array.from({ length: 4 }, () => expireDueSessions(suite.db, due, { batchSize: 100 })),
      );
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(sessions);
      for (const id of ids) expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await expectLedgerToAgree()).toMatchObject({ available: sessions * KYC_PRICE, held: 0 });
    });

    it('simultaneous retries of one create under either idempotency header make one session and one hold', async () => {
      await fundWallet(suite.db, acme.id, 'live', 10 * KYC_PRICE);
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          suite.app.inject({
            method: 'POST',
            url: '/v1/verify/sessions',
            headers: {
              'x-service-api-key': acme.liveKey,
              [index % 2 === 0 ? 'idempotency-key' : 'x-idempotency-key']: 'one-create',
            },
            payload: { type: 'kyc', externalEndUserId: 'retried-at-once' },
          }),
        ),
      );
      const created = responses.filter((response) => response.statusCode === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(responses.every((response) => [201, 409].includes(response.statusCode))).toBe(true);
      expect(new Set(created.map((response) => response.json().data.sessionId)).size).toBe(1);
      expect(await countSessions(suite.db)).toBe(1);
      expect(await suite.db.$count(ledgerTransactions, eq(ledgerTransactions.kind, 'hold'))).toBe(1);
      expect(await expectLedgerToAgree()).toMatchObject({ available: 9 * KYC_PRICE, held: KYC_PRICE });
    });

    it('simultaneous cancels of one session (different keys) release the hold once', async () => {
      await fundWallet(suite.db, acme.id, 'live', KYC_PRICE);
      const id = await createdSessionId(suite.app, acme.liveKey);
      const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => cancel(id, `double-${index}`)));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      await expectLedgerToAgree();
    });

    it('simultaneous test decisions of one session (different keys, different outcomes) decide it once', async () => {
      await fundWallet(suite.db, acme.id, 'test', KYC_PRICE);
      const id = await createdSessionId(suite.app, acme.testKey);
      const submitted = await testDecision(id, { status: 'processing' }, 'submit');
      expect(submitted.statusCode).toBe(200);
      const outcomes = ['verified', 'rejected', 'requires_input'];
      const responses = await Promise.all(
        Array.from({ length: 9 }, (_, index) =>
          testDecision(id, { status: outcomes[index % outcomes.length] }, `decide-${index}`),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409]);
      const winner = responses.find((response) => response.statusCode === 200)!.json().data.status;
      expect(await statusOf(suite.db, id)).toBe(winner);
      const decidedEvents = (await eventTypesOf(suite.db, id)).filter(
        (type) => type !== 'verification_session.created' && type !== 'verification_session.processing',
      );
      expect(decidedEvents).toEqual([`verification_session.${winner}`]);
      expect(await holdMovements(suite.db, id)).toEqual(winner === 'requires_input' ? ['hold'] : ['capture', 'hold']);
      const wallet = await walletState(suite.db, acme.id, 'test');
      expect(wallet.ledger).toEqual({ available: wallet.available, held: wallet.held });
    });
  },
);
