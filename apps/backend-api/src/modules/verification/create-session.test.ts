import {
  idempotencyRecords,
  ledgerTransactions,
  verificationPrices,
  verificationSessions,
  webhookEvents,
} from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app-fixtures.js';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import {
  countSessions,
  createdSessionId,
  createSessionRequest,
  eventTypesOf,
  fundWallet,
  holdMovements,
  TEST_VERIFY_URL,
  transitionsOf,
  walletState,
} from '../../../test/verification-fixtures.js';

const { suite, clock, create, snapshot, acme, globex, withPrivateTargets } = sessionsApiSuite();

describe('POST /v1/verify/sessions', () => {
  it('creates a pending kyc session, holds its price and answers as the spec shows', async () => {
    const response = await create(acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'customer-42',
      appName: 'Acme Wallet',
      callbackUrl: 'https://acme.example.com/callbacks',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    const sessionId = body.data.sessionId as string;
    expect(body).toEqual({
      success: true,
      message: 'Verification session created',
      data: {
        sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        verificationUrl: `${TEST_VERIFY_URL}/session/${sessionId}`,
        type: 'kyc',
        environment: 'live',
        status: 'pending',
        externalEndUserId: 'customer-42',
        appName: 'Acme Wallet',
        callbackUrl: 'https://acme.example.com/callbacks',
        locale: 'en',
        returnUrl: null,
        privacyNoticeUrl: null,
        requiredDocuments: ['national_id_or_passport', 'selfie'],
        lastError: null,
        lastErrorCode: null,
        resubmitDocuments: null,
        price: 50,
        createdAt: '2026-03-02T09:00:00.000Z',
        updatedAt: '2026-03-02T09:00:00.000Z',
        expiresAt: '2026-03-03T09:00:00.000Z',
        completedAt: null,
        submittedAt: null,
        personalDataErasedAt: null,
      },
    });
    expect(await walletState(suite.db, acme.id, 'live')).toEqual({
      available: 950,
      held: 50,
      ledger: { available: 950, held: 50 },
    });
    expect(await holdMovements(suite.db, sessionId)).toEqual(['hold']);
    expect(await transitionsOf(suite.db, sessionId)).toEqual([
      { from: null, to: 'pending', actor: `api_key:${acme.liveKeyId}` },
    ]);
    expect(await eventTypesOf(suite.db, sessionId)).toEqual(['verification_session.created']);
  });

  it('writes the created event for the callback, without personal data', async () => {
    const sessionId = await createdSessionId(suite.app, acme.liveKey, {
      type: 'kyb',
      externalEndUserId: 'company-7',
      callbackUrl: 'https://acme.example.com/kyb',
    });
    const [event] = await suite.db.select().from(webhookEvents);
    expect(event).toMatchObject({
      organizationId: acme.id,
      environment: 'live',
      type: 'verification_session.created',
      targetUrl: 'https://acme.example.com/kyb',
      status: 'pending',
    });
    expect(event?.payload).toEqual({
      id: event?.id,
      type: 'verification_session.created',
      timestamp: '2026-03-02T09:00:00.000Z',
      data: {
        sessionId,
        type: 'kyb',
        status: 'pending',
        previousStatus: null,
        environment: 'live',
        externalEndUserId: 'company-7',
        lastError: null,
        lastErrorCode: null,
        resubmitDocuments: null,
      },
    });
  });

  it('asks kyb sessions for business documents and holds the kyb price', async () => {
    const response = await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company-7' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      type: 'kyb',
      price: 200,
      appName: null,
      callbackUrl: null,
      requiredDocuments: ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_ids'],
    });
    expect((await walletState(suite.db, acme.id, 'live')).held).toBe(200);
  });

  it("charges a test key's sessions to the test wallet only", async () => {
    const response = await create(acme.testKey, { type: 'kyc', externalEndUserId: 'tester' });
    expect(response.json().data.environment).toBe('test');
    expect(await walletState(suite.db, acme.id, 'test')).toMatchObject({ available: 950, held: 50 });
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 1_000, held: 0 });
  });

  it("uses the organization's own price over the default", async () => {
    await suite.db.insert(verificationPrices).values({ organizationId: acme.id, type: 'kyc', price: 35 });
    const response = await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'discounted' });
    expect(response.json().data.price).toBe(35);
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 965, held: 35 });
    // Other organizations keep the default.
    await fundWallet(suite.db, globex.id, 'live', 100);
    expect((await create(globex.liveKey, { type: 'kyc', externalEndUserId: 'x' })).json().data.price).toBe(50);
  });

  it('creates a free session without touching the wallet when the price is 0', async () => {
    await suite.db.insert(verificationPrices).values({ organizationId: globex.id, type: 'kyc', price: 0 });
    const response = await create(globex.liveKey, { type: 'kyc', externalEndUserId: 'free' });
    expect(response.statusCode).toBe(201);
    expect(await holdMovements(suite.db, response.json().data.sessionId)).toEqual([]);
  });

  it('answers 402 asking for a top-up and writes nothing when the balance is too low', async () => {
    await fundWallet(suite.db, globex.id, 'live', 20);
    const before = await snapshot();
    const response = await create(globex.liveKey, { type: 'kyc', externalEndUserId: 'poor' }, 'too-poor');
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      success: false,
      code: 'insufficient_funds',
      error:
        'Insufficient wallet balance: a kyc verification costs KES 50 and your live wallet has KES 20 available. ' +
        'Top up your wallet and try again.',
      requestId: response.headers['x-request-id'],
    });
    expect(await snapshot()).toEqual(before);
    expect(await walletState(suite.db, globex.id, 'live')).toMatchObject({ available: 20, held: 0 });
  });

  it('answers 402 for a live wallet never funded, without creating the wallet', async () => {
    const before = await snapshot();
    const response = await create(globex.liveKey, { type: 'kyb', externalEndUserId: 'new' });
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toBe(
      'Insufficient wallet balance: a kyb verification costs KES 200 and your live wallet has KES 0 available. ' +
        'Top up your wallet and try again.',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('pays a first test session from the test credit of a test wallet never used (docs/decisions.md#test-credit)', async () => {
    const response = await create(globex.testKey, { type: 'kyb', externalEndUserId: 'first-test' });
    expect(response.statusCode).toBe(201);
    expect(await walletState(suite.db, globex.id, 'test')).toEqual({
      available: 9_800,
      held: 200,
      ledger: { available: 9_800, held: 200 },
    });
    expect(await holdMovements(suite.db, response.json().data.sessionId as string)).toEqual(['hold']);
  });

  it('replays a create with the same idempotency key: same sessionId, one hold', async () => {
    const body = { type: 'kyc', externalEndUserId: 'retry-me' };
    const first = await create(acme.liveKey, body, 'create-once');
    const retry = await create(acme.liveKey, body, 'create-once');
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.sessionId).toBe(first.json().data.sessionId);
    expect(retry.body).toBe(first.body);
    expect(await countSessions(suite.db)).toBe(1);
    expect(await suite.db.$count(ledgerTransactions, undefined)).toBe(3); // two top-ups and one hold
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 950, held: 50 });

    const reused = await create(acme.liveKey, { ...body, type: 'kyb' }, 'create-once');
    expect(reused.statusCode).toBe(422);
    expect(await countSessions(suite.db)).toBe(1);
  });

  it.each([
    ['Idempotency-Key both times', 'Idempotency-Key', 'Idempotency-Key'],
    ['x-idempotency-key, then Idempotency-Key', 'x-idempotency-key', 'Idempotency-Key'],
  ])('replays a create retried with %s: one session, one hold', async (_label, firstHeader, retryHeader) => {
    const body = { type: 'kyc', externalEndUserId: 'retried' };
    const send = (header: string) =>
      suite.app.inject({
        method: 'POST',
        url: '/v1/verify/sessions',
        headers: { 'x-service-api-key': acme.liveKey, [header]: 'session-once' },
        payload: body,
      });
    const first = await send(firstHeader);
    const retry = await send(retryHeader);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await countSessions(suite.db)).toBe(1);
    expect(await holdMovements(suite.db, first.json().data.sessionId)).toEqual(['hold']);
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 950, held: 50 });
  });

  it('refuses a create carrying both idempotency headers with different values, and creates nothing', async () => {
    const response = await suite.app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      headers: { 'x-service-api-key': acme.liveKey, 'x-idempotency-key': 'one', 'idempotency-key': 'other' },
      payload: { type: 'kyc', externalEndUserId: 'two-keys' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: 'headers/idempotency-key', message: expect.stringContaining('x-idempotency-key') }],
    });
    expect(await countSessions(suite.db)).toBe(0);
    expect(await walletState(suite.db, acme.id, 'live')).toMatchObject({ available: 1_000, held: 0 });
  });

  it('takes both idempotency headers with the same value as one key', async () => {
    const headers = { 'x-service-api-key': acme.liveKey, 'x-idempotency-key': 'same', 'idempotency-key': 'same' };
    const payload = { type: 'kyc', externalEndUserId: 'same-key' };
    const first = await suite.app.inject({ method: 'POST', url: '/v1/verify/sessions', headers, payload });
    const retry = await suite.app.inject({ method: 'POST', url: '/v1/verify/sessions', headers, payload });
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countSessions(suite.db)).toBe(1);
  });

  it('commits the session, the hold and the stored answer together', async () => {
    const response = await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'stored' }, 'stored-key');
    const [record] = await suite.db.select().from(idempotencyRecords);
    expect(record).toMatchObject({ key: 'stored-key', status: 'completed', responseStatus: 201 });
    expect(record?.responseBody).toEqual(response.json());
  });

  it('accepts an http callback URL only when private targets are allowed', async () => {
    const body = { type: 'kyc', externalEndUserId: 'local', callbackUrl: 'http://127.0.0.1:9999/hook' };
    expect((await create(acme.liveKey, body)).statusCode).toBe(400);
    await withPrivateTargets(async (local) => {
      const response = await createSessionRequest(local, acme.liveKey, body);
      expect(response.statusCode).toBe(201);
      expect(response.json().data.callbackUrl).toBe('http://127.0.0.1:9999/hook');
    });
  });
});

describe('decision source', () => {
  const sourcesOf = async () =>
    (
      await suite.db
        .select({
          environment: verificationSessions.environment,
          type: verificationSessions.type,
          source: verificationSessions.decisionSource,
        })
        .from(verificationSessions)
    )
      .map(({ environment, type, source }) => `${environment}:${type}=${source}`)
      .sort();

  it('gives test sessions the sandbox and live sessions a reviewer by default', async () => {
    for (const key of [acme.liveKey, acme.testKey]) {
      for (const type of ['kyc', 'kyb']) await createdSessionId(suite.app, key, { type, externalEndUserId: 'x' });
    }
    expect(await sourcesOf()).toEqual(['live:kyb=manual', 'live:kyc=manual', 'test:kyb=sandbox', 'test:kyc=sandbox']);
  });

  it('fixes on each session the source VERIFICATION_DECISIONS gives its environment and type', async () => {
    const configured = await buildTestApp(suite.handle, {
      now: clock.now,
      env: { VERIFICATION_DECISIONS: 'test:kyb=manual,live:kyc=sandbox', HOSTED_PAGE_LIVE_SANDBOX: 'true' },
    });
    try {
      for (const key of [acme.liveKey, acme.testKey]) {
        for (const type of ['kyc', 'kyb']) await createdSessionId(configured, key, { type, externalEndUserId: 'x' });
      }
    } finally {
      await configured.close();
    }
    expect(await sourcesOf()).toEqual(['live:kyb=manual', 'live:kyc=sandbox', 'test:kyb=manual', 'test:kyc=sandbox']);
  });
});
