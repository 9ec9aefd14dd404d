import {
  ledgerTransactions,
  memberships,
  notifications,
  users,
  verificationPrices,
  verificationSessions,
  wallets,
} from '@platform/db/schema';
import { createStatementLog } from '@platform/db/testing';
import { commitMove } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { statementsSent } from '../../../test/statement-fixtures.js';
import {
  createdSessionId,
  createSessionRequest,
  fundWallet,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';
import { expireDueSessions } from './expiry.js';

const HOUR = 60 * 60 * 1000;

// The statements each write of a session sends to PostgreSQL, counted by the client under drizzle, BEGIN and COMMIT
// included (docs/decisions.md#statements-per-request). A transaction holds the wallet's row lock from the statement
// that takes it to its COMMIT, so that statement comes last: the lock is held for one round trip.
describe.skipIf(missing(postgresServer))('statements per session write (PostgreSQL)', () => {
  const log = createStatementLog();
  const suite = useTestApp({ statementLog: log });
  let acme: TestOrganization;

  beforeEach(async () => {
    suite.clock.set(TEST_START);
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    // The key's first use is written (lastUsedAt) once a minute after the answer: out of what is counted.
    await createdSessionId(suite.app, acme.liveKey);
  });

  const sent = (work: () => Promise<unknown>) => statementsSent(log, suite.app, work);

  // A create's writes, its unit of work's commit statement: the hold first, taking the wallet's lock, then the session
  // with its transition and event, and the stored answer (docs/decisions.md#a-unit-of-work). Once the instance knows
  // the organization's price it is the whole create, sent outside a transaction
  // (docs/decisions.md#a-create-in-one-statement); otherwise the transaction reads the price first.
  const oneStatement =
    'update wallets, insert ledger_transactions, insert ledger_entries, insert verification_sessions, ' +
    'insert verification_session_transitions, insert webhook_events';
  const oneStatementWithAnswer = `${oneStatement}, update idempotency_records`;
  const transactional = ['BEGIN', 'select verification_prices', oneStatementWithAnswer];
  const freeSessionWithAnswer =
    'insert verification_sessions, insert verification_session_transitions, insert webhook_events, ' +
    'update idempotency_records';
  const sessionsAndHolds = async () => ({
    sessions: (await suite.db.select().from(verificationSessions)).length,
    holds: (await suite.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.kind, 'hold'))).length,
    wallet: await walletState(suite.db, acme.id, 'live'),
  });

  it('create: three statements with the idempotency key once the price is known, the last holding, creating and answering', async () => {
    let answer: unknown;
    const statements = await sent(async () => {
      const response = await createSessionRequest(
        suite.app,
        acme.liveKey,
        { type: 'kyc', externalEndUserId: 'u' },
        'k1',
      );
      expect(response.statusCode).toBe(201);
      answer = response.json().data;
    });
    expect(statements).toEqual(['select api_keys', 'insert idempotency_records', oneStatementWithAnswer]);

    // The answer, built without reading the session back, is the session as stored, and replays as it was.
    const stored = await suite.app.inject({
      method: 'GET',
      url: `/v1/verify/sessions/${(answer as { sessionId: string }).sessionId}`,
      headers: { 'x-service-api-key': acme.liveKey },
    });
    // Read by id, it carries its checks too (none before a submission).
    const { checks, ...session } = stored.json().data;
    expect(checks).toEqual([]);
    expect(session).toEqual(answer);
    const replay = await createSessionRequest(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'u' }, 'k1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data).toEqual(answer);
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 9_900, held: 100 });
  });

  it("create: an instance's first of a type runs in a transaction (six statements, five without a key), then one", async () => {
    const first = await sent(() =>
      createSessionRequest(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'b' }),
    );
    expect(first).toEqual(['select api_keys', 'BEGIN', 'select verification_prices', oneStatement, 'COMMIT']);
    const next = await sent(() =>
      createSessionRequest(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'c' }),
    );
    expect(next).toEqual(['select api_keys', oneStatement]);
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 9_550, held: 450 });
  });

  it('create: a price changed since is left to the transaction, the one statement writing nothing; a free session then runs in it', async () => {
    const before = await sessionsAndHolds();
    await suite.db.insert(verificationPrices).values({ organizationId: acme.id, type: 'kyc', price: 0 });
    const changed = await sent(() =>
      createSessionRequest(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'f' }, 'k2'),
    );
    expect(changed).toEqual([
      'select api_keys',
      'insert idempotency_records',
      oneStatementWithAnswer,
      'BEGIN',
      'select verification_prices',
      freeSessionWithAnswer,
      'COMMIT',
    ]);
    expect(await sessionsAndHolds()).toEqual({ ...before, sessions: before.sessions + 1 });

    const free = await sent(() =>
      createSessionRequest(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'g' }, 'k3'),
    );
    expect(free).toEqual([
      'select api_keys',
      'insert idempotency_records',
      'BEGIN',
      'select verification_prices',
      freeSessionWithAnswer,
      'COMMIT',
    ]);
  });

  it('create: the hold that crosses the low-balance threshold is left to the transaction, which sends the alert', async () => {
    await suite.db.insert(users).values({ id: 'acme-owner', email: 'owner@acme.test' });
    await suite.db.insert(memberships).values({ organizationId: acme.id, userId: 'acme-owner', role: 'owner' });
    await suite.db.update(wallets).set({ lowBalanceThreshold: 9_920 }).where(eq(wallets.organizationId, acme.id));
    const holdsBefore = (await sessionsAndHolds()).holds;
    const statements = await sent(() =>
      createSessionRequest(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'a' }, 'k4'),
    );
    expect(statements).toEqual([
      'select api_keys',
      'insert idempotency_records',
      oneStatementWithAnswer,
      ...transactional,
      'insert notifications, insert webhook_events',
      'COMMIT',
    ]);
    expect((await sessionsAndHolds()).holds).toBe(holdsBefore + 1);
    const told = await suite.db.select().from(notifications).where(eq(notifications.userId, 'acme-owner'));
    expect(told.map((notification) => notification.title)).toEqual(['Wallet balance low']);
  });

  it('create: too little available is left to the transaction, which answers 402; nothing is written', async () => {
    await suite.db
      .update(wallets)
      .set({ availableBalance: 40, heldBalance: 9_960 })
      .where(eq(wallets.organizationId, acme.id));
    const before = await sessionsAndHolds();
    let status = 0;
    const statements = await sent(async () => {
      const response = await createSessionRequest(
        suite.app,
        acme.liveKey,
        { type: 'kyc', externalEndUserId: 'p' },
        'k5',
      );
      status = response.statusCode;
      expect(response.json().error).toContain('has KES 40 available');
    });
    expect(status).toBe(402);
    expect(statements.slice(0, 4)).toEqual([
      'select api_keys',
      'insert idempotency_records',
      oneStatementWithAnswer,
      'BEGIN',
    ]);
    expect(await sessionsAndHolds()).toEqual(before);
  });

  it('cancel: six statements, the release last before COMMIT', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    const statements = await sent(async () => {
      const response = await suite.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/cancel`,
        headers: { 'x-service-api-key': acme.liveKey, 'x-idempotency-key': 'c1' },
      });
      expect(response.statusCode).toBe(200);
    });
    expect(statements).toEqual([
      'select api_keys',
      'insert idempotency_records',
      'BEGIN',
      'update verification_sessions',
      'update wallets, insert ledger_transactions, insert ledger_entries, ' +
        'insert verification_session_transitions, insert webhook_events, update idempotency_records',
      'COMMIT',
    ]);
  });

  it('GET /v1/verify/sessions/:id, which customers poll: the key, then one prepared read of the session', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    const statements = await statementsSent(
      log,
      suite.app,
      async () => {
        const response = await suite.app.inject({
          method: 'GET',
          url: `/v1/verify/sessions/${id}`,
          headers: { 'x-service-api-key': acme.liveKey },
        });
        expect(response.json().data).toMatchObject({ sessionId: id, status: 'pending' });
      },
      { markPrepared: true },
    );
    expect(statements).toEqual(['select api_keys (prepared)', 'select verification_sessions (prepared)']);
  });

  it('GET /v1/verify/sessions/:id with a malformed id: the 400 envelope before any read; an unknown one: 404', async () => {
    const get = (id: string) =>
      suite.app.inject({
        method: 'GET',
        url: `/v1/verify/sessions/${id}`,
        headers: { 'x-service-api-key': acme.liveKey },
      });
    const malformed = await statementsSent(log, suite.app, async () => {
      const response = await get('not-a-session%00');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    });
    expect(malformed).not.toContain('select verification_sessions');
    const unknown = await get('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('expiry of one session: five statements, the release last before COMMIT', async () => {
    const statements = await sent(async () => {
      expect(await expireDueSessions(suite.db, new Date(TEST_START.getTime() + 25 * HOUR), { batchSize: 1 })).toBe(1);
    });
    expect(statements).toEqual([
      'BEGIN',
      'lock verification_sessions',
      'update verification_sessions',
      'update wallets, insert ledger_transactions, insert ledger_entries, ' +
        'insert verification_session_transitions, insert webhook_events',
      'COMMIT',
    ]);
  });

  it('a decision (verified, the hold captured): four statements, the capture last before COMMIT', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    await commitMove(suite.db, { sessionId: id, to: 'processing', actor: 'test', now: TEST_START }, {});
    const statements = await sent(() =>
      commitMove(suite.db, { sessionId: id, to: 'verified', actor: 'test', now: TEST_START }, {}),
    );
    expect(statements).toEqual([
      'BEGIN',
      'update verification_sessions',
      'update wallets, insert ledger_transactions, insert ledger_entries, ' +
        'insert verification_session_transitions, insert webhook_events, insert notifications',
      'COMMIT',
    ]);
  });
});
