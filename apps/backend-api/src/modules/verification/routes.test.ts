import {
  idempotencyRecords,
  ledgerTransactions,
  verificationPrices,
  verificationSessions,
  verificationSessionTransitions,
  wallets,
  webhookEvents,
} from '@platform/db/schema';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  useTestApp,
} from '../../../test/app-fixtures.js';
import {
  countSessions,
  createdSessionId,
  createSessionRequest,
  eventTypesOf,
  fundWallet,
  holdMovements,
  TEST_VERIFY_URL,
  transitionsOf,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';

const HOUR = 60 * 60 * 1000;

describe('verification sessions API', () => {
  const suite = useTestApp({ env: { VERIFY_URL: `${TEST_VERIFY_URL}/` } });
  const { clock } = suite;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeEach(async () => {
    clock.set(TEST_START);
    await truncateVerificationData(suite.db);
    [acme, globex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
    await fundWallet(suite.db, acme.id, 'live', 1_000);
    await fundWallet(suite.db, acme.id, 'test', 1_000);
  });

  const create = (key: string, body: unknown, idempotencyKey?: string) =>
    createSessionRequest(suite.app, key, body, idempotencyKey);
  const get = (key: string, id: string) =>
    suite.app.inject({ method: 'GET', url: `/v1/verify/sessions/${id}`, headers: { 'x-service-api-key': key } });
  const list = (key: string, query = '') =>
    suite.app.inject({ method: 'GET', url: `/v1/verify/sessions${query}`, headers: { 'x-service-api-key': key } });
  const cancel = (key: string, id: string, idempotencyKey?: string) =>
    suite.app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${id}/cancel`,
      headers: {
        'x-service-api-key': key,
        ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
      },
    });

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

    it('answers 402 for a wallet never funded, without creating the wallet', async () => {
      const before = await snapshot();
      const response = await create(globex.testKey, { type: 'kyb', externalEndUserId: 'new' });
      expect(response.statusCode).toBe(402);
      expect(response.json().error).toBe(
        'Insufficient wallet balance: a kyb verification costs KES 200 and your test wallet has KES 0 available. ' +
          'Top up your wallet and try again.',
      );
      expect(await snapshot()).toEqual(before);
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
      const local = await buildTestApp(suite.handle, {
        now: clock.now,
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      });
      try {
        const response = await createSessionRequest(local, acme.liveKey, body);
        expect(response.statusCode).toBe(201);
        expect(response.json().data.callbackUrl).toBe('http://127.0.0.1:9999/hook');
      } finally {
        await local.close();
      }
    });
  });

  describe('locale and returnUrl', () => {
    const returnUrl = 'https://acme.example.com/verified?step=done';

    it('keeps them, and answers them in create, get, list and cancel', async () => {
      const created = await create(acme.liveKey, {
        type: 'kyc',
        externalEndUserId: 'swahili-speaker',
        locale: 'sw',
        returnUrl,
      });
      expect(created.statusCode).toBe(201);
      const session = created.json().data;
      expect(session).toMatchObject({ locale: 'sw', returnUrl });
      expect((await get(acme.liveKey, session.sessionId)).json().data).toEqual(session);
      expect((await list(acme.liveKey)).json().data.sessions).toEqual([session]);
      const canceled = await cancel(acme.liveKey, session.sessionId);
      expect(canceled.json().data).toMatchObject({ locale: 'sw', returnUrl, status: 'canceled' });
    });

    it('defaults to English without a return URL', async () => {
      const session = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company' })).json().data;
      expect(session).toMatchObject({ locale: 'en', returnUrl: null });
      const [row] = await suite.db.select().from(verificationSessions);
      expect(row).toMatchObject({ locale: 'en', returnUrl: null });
    });

    it('accepts an http or private returnUrl only when private targets are allowed', async () => {
      const body = { type: 'kyc', externalEndUserId: 'local', returnUrl: 'http://localhost:5173/done' };
      expect((await create(acme.liveKey, body)).statusCode).toBe(400);
      const local = await buildTestApp(suite.handle, {
        now: clock.now,
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      });
      try {
        const response = await createSessionRequest(local, acme.liveKey, body);
        expect(response.statusCode).toBe(201);
        expect(response.json().data.returnUrl).toBe('http://localhost:5173/done');
      } finally {
        await local.close();
      }
    });

    it('treats an omitted locale and "en" as the same request, and another locale or returnUrl as a different one', async () => {
      const body = { type: 'kyc', externalEndUserId: 'retry-locale' };
      const first = await create(acme.liveKey, body, 'locale-key');
      const explicit = await create(acme.liveKey, { ...body, locale: 'en' }, 'locale-key');
      expect(explicit.statusCode).toBe(201);
      expect(explicit.headers['idempotent-replayed']).toBe('true');
      expect(explicit.body).toBe(first.body);
      expect((await create(acme.liveKey, { ...body, locale: 'sw' }, 'locale-key')).statusCode).toBe(422);
      expect((await create(acme.liveKey, { ...body, returnUrl }, 'locale-key')).statusCode).toBe(422);
      expect(await countSessions(suite.db)).toBe(1);
    });
  });

  describe('privacyNoticeUrl', () => {
    const privacyNoticeUrl = 'https://acme.example.com/legal/privacy?lang=en#verification';

    it('keeps it, and answers it in create, get, list and cancel', async () => {
      const created = await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'reader', privacyNoticeUrl });
      expect(created.statusCode).toBe(201);
      const session = created.json().data;
      expect(session.privacyNoticeUrl).toBe(privacyNoticeUrl);
      expect((await get(acme.liveKey, session.sessionId)).json().data).toEqual(session);
      expect((await list(acme.liveKey)).json().data.sessions).toEqual([session]);
      const canceled = await cancel(acme.liveKey, session.sessionId);
      expect(canceled.json().data).toMatchObject({ privacyNoticeUrl, status: 'canceled' });
      const [row] = await suite.db.select().from(verificationSessions);
      expect(row?.privacyNoticeUrl).toBe(privacyNoticeUrl);
    });

    it('is null when not given', async () => {
      const session = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company' })).json().data;
      expect(session.privacyNoticeUrl).toBeNull();
      const [row] = await suite.db.select().from(verificationSessions);
      expect(row?.privacyNoticeUrl).toBeNull();
    });

    it('accepts an http or private privacyNoticeUrl only when private targets are allowed', async () => {
      const body = { type: 'kyc', externalEndUserId: 'local', privacyNoticeUrl: 'http://10.0.0.5:8080/privacy' };
      const refused = await create(acme.liveKey, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toContain('privacyNoticeUrl must use https');
      const local = await buildTestApp(suite.handle, {
        now: clock.now,
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      });
      try {
        const response = await createSessionRequest(local, acme.liveKey, body);
        expect(response.statusCode).toBe(201);
        expect(response.json().data.privacyNoticeUrl).toBe('http://10.0.0.5:8080/privacy');
        // Allowing private targets still allows only web addresses: the page links to it.
        const script = await createSessionRequest(local, acme.liveKey, { ...body, privacyNoticeUrl: 'javascript:x()' });
        expect(script.statusCode).toBe(400);
        expect(script.json().error).toContain('privacyNoticeUrl must use https or http');
      } finally {
        await local.close();
      }
      expect(await countSessions(suite.db)).toBe(1);
    });

    it('is described in OpenAPI, in the create body and the session', async () => {
      const openapi = (await suite.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const { CreateVerificationSession, VerificationSession } = openapi.components.schemas;
      expect(CreateVerificationSession.properties.privacyNoticeUrl).toMatchObject({
        type: 'string',
        maxLength: 2048,
        description: expect.stringContaining('privacy notice'),
      });
      expect(CreateVerificationSession.required).not.toContain('privacyNoticeUrl');
      expect(VerificationSession.properties.privacyNoticeUrl.description).toContain('null when not given');
      expect(VerificationSession.required).toContain('privacyNoticeUrl');
    });

    it('makes another privacyNoticeUrl under the same idempotency key a different request', async () => {
      const body = { type: 'kyc', externalEndUserId: 'retry-privacy', privacyNoticeUrl };
      expect((await create(acme.liveKey, body, 'privacy-key')).statusCode).toBe(201);
      const other = { ...body, privacyNoticeUrl: 'https://acme.example.com/privacy-v2' };
      expect((await create(acme.liveKey, other, 'privacy-key')).statusCode).toBe(422);
      expect(
        (await create(acme.liveKey, { type: 'kyc', externalEndUserId: 'retry-privacy' }, 'privacy-key')).statusCode,
      ).toBe(422);
      expect(await countSessions(suite.db)).toBe(1);
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

  describe('bad input: 400 envelope and nothing written', () => {
    it.each([
      ['no type', { externalEndUserId: 'a' }, 'type is required: kyc or kyb'],
      ['an unknown type', { type: 'kyx', externalEndUserId: 'a' }, 'type must be kyc or kyb'],
      ['no externalEndUserId', { type: 'kyc' }, 'externalEndUserId is required'],
      [
        'an empty externalEndUserId',
        { type: 'kyc', externalEndUserId: '' },
        'externalEndUserId must be 1-255 characters long',
      ],
      [
        'an externalEndUserId of 256 characters',
        { type: 'kyc', externalEndUserId: 'u'.repeat(256) },
        'externalEndUserId must be 1-255 characters long',
      ],
      ['a numeric externalEndUserId', { type: 'kyc', externalEndUserId: 42 }, 'externalEndUserId must be text'],
      [
        'an empty appName',
        { type: 'kyc', externalEndUserId: 'a', appName: '' },
        'appName must be 1-100 characters long',
      ],
      [
        'an appName of 101 characters',
        { type: 'kyc', externalEndUserId: 'a', appName: 'n'.repeat(101) },
        'appName must be 1-100 characters long',
      ],
      [
        'a relative callbackUrl',
        { type: 'kyc', externalEndUserId: 'a', callbackUrl: '/hooks' },
        'callbackUrl must be an absolute URL',
      ],
      [
        'an http callbackUrl',
        { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'http://acme.example.com/h' },
        'callbackUrl must use https',
      ],
      [
        'a callbackUrl with a password',
        { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'https://u:p@acme.example.com/h' },
        'callbackUrl must not contain a user name or password',
      ],
      [
        'a loopback callbackUrl',
        { type: 'kyc', externalEndUserId: 'a', callbackUrl: 'https://127.0.0.1/h' },
        'callbackUrl must not point to 127.0.0.1',
      ],
      [
        'a callbackUrl of 2049 characters',
        { type: 'kyc', externalEndUserId: 'a', callbackUrl: `https://acme.example.com/${'c'.repeat(2024)}` },
        'callbackUrl must be 1-2048 characters long',
      ],
      [
        'an http returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: 'http://acme.example.com/done' },
        'returnUrl must use https',
      ],
      [
        'a relative returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: '/done' },
        'returnUrl must be an absolute URL',
      ],
      [
        'a returnUrl with a password',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://u:p@acme.example.com/done' },
        'returnUrl must not contain a user name or password',
      ],
      [
        'a private returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://192.168.1.10/done' },
        'returnUrl must not point to 192.168.1.10',
      ],
      [
        'a localhost returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: 'https://localhost/done' },
        'returnUrl must not point to localhost',
      ],
      [
        'a returnUrl of 2049 characters',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: `https://acme.example.com/${'r'.repeat(2024)}` },
        'returnUrl must be 1-2048 characters long',
      ],
      [
        'an empty returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: '' },
        'returnUrl must be 1-2048 characters long',
      ],
      [
        'an http privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'http://acme.example.com/privacy' },
        'privacyNoticeUrl must use https',
      ],
      [
        'a privacyNoticeUrl that is not a URL',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'our privacy notice' },
        'privacyNoticeUrl must be an absolute URL',
      ],
      [
        'a relative privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: '/privacy' },
        'privacyNoticeUrl must be an absolute URL',
      ],
      [
        'a privacyNoticeUrl with a password',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://u:p@acme.example.com/privacy' },
        'privacyNoticeUrl must not contain a user name or password',
      ],
      [
        'a private privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://10.1.2.3/privacy' },
        'privacyNoticeUrl must not point to 10.1.2.3',
      ],
      [
        'a localhost privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: 'https://intranet.localhost/privacy' },
        'privacyNoticeUrl must not point to localhost',
      ],
      [
        'a privacyNoticeUrl of 2049 characters',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: `https://acme.example.com/${'p'.repeat(2024)}` },
        'privacyNoticeUrl must be 1-2048 characters long',
      ],
      [
        'an empty privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: '' },
        'privacyNoticeUrl must be 1-2048 characters long',
      ],
      [
        'a null privacyNoticeUrl',
        { type: 'kyc', externalEndUserId: 'a', privacyNoticeUrl: null },
        'privacyNoticeUrl must be text of 1-2048 characters',
      ],
      [
        'a null returnUrl',
        { type: 'kyc', externalEndUserId: 'a', returnUrl: null },
        'returnUrl must be text of 1-2048 characters',
      ],
      ['an unknown locale', { type: 'kyc', externalEndUserId: 'a', locale: 'fr' }, 'locale must be en or sw'],
      ['an upper-case locale', { type: 'kyc', externalEndUserId: 'a', locale: 'SW' }, 'locale must be en or sw'],
      ['a null locale', { type: 'kyc', externalEndUserId: 'a', locale: null }, 'locale must be en or sw'],
      ...['\u202e', '\u202a', '\u2066', '\u2069', '\u2028', '\u2029', '\n', '\u0085'].map(
        (character): [string, object, string] => [
          `an appName with U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
          { type: 'kyc', externalEndUserId: 'a', appName: `Acme${character}Pay` },
          'appName must be one line of text',
        ],
      ),
    ] as [string, object, string][])('POST with %s', async (_label, body, error) => {
      const before = await snapshot();
      const response = await create(acme.liveKey, body, 'bad-input');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
      expect(response.json().error).toContain(error);
      expect(await snapshot()).toEqual(before);
    });

    it('POST with malformed JSON', async () => {
      const before = await snapshot();
      const response = await suite.app.inject({
        method: 'POST',
        url: '/v1/verify/sessions',
        headers: { 'x-service-api-key': acme.liveKey, 'content-type': 'application/json' },
        payload: '{"type": "kyc",',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_json');
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['a limit above 100', '?limit=101'],
      ['a limit of 0', '?limit=0'],
      ['an unknown status', '?status=done'],
      ['a cursor this API did not issue', '?cursor=bm90LWEtY3Vyc29y'],
    ])('GET list with %s', async (_label, query) => {
      const response = await list(acme.liveKey, query);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('validation_error');
    });

    it('GET and cancel with an id that is not a UUID', async () => {
      expect((await get(acme.liveKey, 'session-1')).statusCode).toBe(400);
      expect((await cancel(acme.liveKey, 'session-1')).statusCode).toBe(400);
    });

    it('without an API key: 401', async () => {
      const response = await suite.app.inject({
        method: 'POST',
        url: '/v1/verify/sessions',
        payload: { type: 'kyc', externalEndUserId: 'a' },
      });
      expect(response.statusCode).toBe(401);
      expect(await countSessions(suite.db)).toBe(0);
    });
  });

  describe('GET /v1/verify/sessions/:id', () => {
    it('shows the session with its required documents', async () => {
      const created = (await create(acme.liveKey, { type: 'kyb', externalEndUserId: 'company-1' })).json().data;
      const response = await get(acme.liveKey, created.sessionId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, data: created });
    });

    it("answers 404 for unknown ids and for other organizations' and environments' sessions alike", async () => {
      const id = await createdSessionId(suite.app, acme.liveKey);
      const unknown = await get(acme.liveKey, crypto.randomUUID());
      const otherOrganization = await get(globex.liveKey, id);
      const otherEnvironment = await get(acme.testKey, id);
      for (const response of [unknown, otherOrganization, otherEnvironment]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({
          success: false,
          code: 'not_found',
          error: 'Verification session not found',
        });
      }
      const sameOrganizationOtherKey = await get(acme.secondLiveKey, id);
      expect(sameOrganizationOtherKey.statusCode).toBe(200);
    });
  });

  describe('GET /v1/verify/sessions', () => {
    const createAt = async (key: string, body: object, minutesLater: number) => {
      clock.set(new Date(Date.parse('2026-03-02T09:00:00.000Z') + minutesLater * 60_000));
      return createdSessionId(suite.app, key, body);
    };

    it('pages newest first with a cursor until nextCursor is null', async () => {
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push(await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: `user-${index}` }, index));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await list(acme.liveKey, `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(response.statusCode).toBe(200);
        const { sessions, nextCursor } = response.json().data as {
          sessions: Array<{ sessionId: string }>;
          nextCursor: string | null;
        };
        seen.push(...sessions.map((session) => session.sessionId));
        cursor = nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].reverse());
    });

    it('defaults to 20 a page', async () => {
      await fundWallet(suite.db, acme.id, 'live', 10_000);
      for (let index = 0; index < 21; index += 1)
        await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: `bulk-${index}` });
      const response = await list(acme.liveKey);
      expect(response.json().data.sessions).toHaveLength(20);
      expect(response.json().data.nextCursor).not.toBeNull();
    });

    it('filters by status and by externalEndUserId, and shows only its own organization and environment', async () => {
      const first = await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: 'alice' }, 0);
      const second = await createAt(acme.liveKey, { type: 'kyb', externalEndUserId: 'alice' }, 1);
      const third = await createAt(acme.liveKey, { type: 'kyc', externalEndUserId: 'bob' }, 2);
      await createAt(acme.testKey, { type: 'kyc', externalEndUserId: 'alice' }, 3);
      await fundWallet(suite.db, globex.id, 'live', 100);
      await createAt(globex.liveKey, { type: 'kyc', externalEndUserId: 'alice' }, 4);
      expect((await cancel(acme.liveKey, second)).statusCode).toBe(200);

      const ids = async (query: string) =>
        ((await list(acme.liveKey, query)).json().data.sessions as Array<{ sessionId: string }>).map(
          (session) => session.sessionId,
        );
      expect(await ids('')).toEqual([third, second, first]);
      expect(await ids('?externalEndUserId=alice')).toEqual([second, first]);
      expect(await ids('?status=pending')).toEqual([third, first]);
      expect(await ids('?status=canceled&externalEndUserId=alice')).toEqual([second]);
      expect(await ids('?status=verified')).toEqual([]);
    });
  });

  describe('POST /v1/verify/sessions/:id/cancel', () => {
    it('cancels a pending session and releases its hold', async () => {
      const id = await createdSessionId(suite.app, acme.liveKey);
      clock.advance(HOUR);
      const response = await cancel(acme.liveKey, id, 'cancel-1');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        success: true,
        message: 'Verification session canceled',
        data: {
          sessionId: id,
          status: 'canceled',
          completedAt: '2026-03-02T10:00:00.000Z',
          updatedAt: '2026-03-02T10:00:00.000Z',
        },
      });
      expect(await walletState(suite.db, acme.id, 'live')).toEqual({
        available: 1_000,
        held: 0,
        ledger: { available: 1_000, held: 0 },
      });
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await eventTypesOf(suite.db, id)).toEqual([
        'verification_session.created',
        'verification_session.canceled',
      ]);

      const replay = await cancel(acme.liveKey, id, 'cancel-1');
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(response.body);
    });

    it('refuses a second cancel (new key) with 409 and releases nothing more', async () => {
      const id = await createdSessionId(suite.app, acme.liveKey);
      expect((await cancel(acme.liveKey, id, 'first')).statusCode).toBe(200);
      const again = await cancel(acme.liveKey, id, 'second');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'conflict',
        error: 'Cannot move a verification session from canceled to canceled',
      });
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
    });

    it("answers 404 for another organization's session and leaves it alone", async () => {
      const id = await createdSessionId(suite.app, acme.liveKey);
      expect((await cancel(globex.liveKey, id)).statusCode).toBe(404);
      expect((await cancel(acme.testKey, id)).statusCode).toBe(404);
      expect((await get(acme.liveKey, id)).json().data.status).toBe('pending');
      expect(await suite.db.$count(verificationSessionTransitions)).toBe(1);
    });
  });

  async function snapshot() {
    return {
      sessions: await suite.db.$count(verificationSessions),
      transitions: await suite.db.$count(verificationSessionTransitions),
      ledger: await suite.db.$count(ledgerTransactions),
      wallets: await suite.db.$count(wallets),
      events: await suite.db.$count(webhookEvents),
      records: await suite.db.$count(idempotencyRecords),
    };
  }
});
