import { ledgerTransactions } from '@platform/db';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import {
  countSessions,
  createdSessionId,
  createSessionRequest,
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

describe.skipIf(!process.env.DATABASE_URL)(
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
          createSessionRequest(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `rush-${index}` }, `rush-${index}`),
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

    it('when the expiry job and a cancel race, exactly one wins and the hold is released once', async () => {
      const rounds = 25;
      await fundWallet(suite.db, acme.id, 'live', rounds * KYC_PRICE);
      const outcomes = { expired: 0, canceled: 0 };
      for (let round = 0; round < rounds; round += 1) {
        const id = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `race-${round}` });
        const due = new Date(clock.now().getTime() + 24 * HOUR);
        // The cancel has more to do before it reaches the session (key lookup, idempotency claim), so the job starts
        // a little later in some rounds: both orders, and the overlaps in between, get their turn.
        const jobDelayMs = round % 8;
        const [expired, canceled] = await Promise.all([
          sleep(jobDelayMs).then(() => expireDueSessions(suite.db, due, {})),
          cancel(id, `cancel-${round}`),
        ]);
        const status = await statusOf(suite.db, id);
        if (status === 'expired') {
          expect(expired).toBe(1);
          expect(canceled.statusCode).toBe(409);
          expect(canceled.json().error).toBe('Cannot move a verification session from expired to canceled');
          outcomes.expired += 1;
        } else {
          expect(status).toBe('canceled');
          expect(expired).toBe(0);
          expect(canceled.statusCode).toBe(200);
          outcomes.canceled += 1;
        }
        expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      }
      expect(outcomes.expired + outcomes.canceled).toBe(rounds);
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
      const counts = await Promise.all(Array.from({ length: 4 }, () => expireDueSessions(suite.db, due, { batchSize: 100 })));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(sessions);
      for (const id of ids) expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await expectLedgerToAgree()).toMatchObject({ available: sessions * KYC_PRICE, held: 0 });
    });

    it('simultaneous cancels of one session (different keys) release the hold once', async () => {
      await fundWallet(suite.db, acme.id, 'live', KYC_PRICE);
      const id = await createdSessionId(suite.app, acme.liveKey);
      const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => cancel(id, `double-${index}`)));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      await expectLedgerToAgree();
    });
  },
);
