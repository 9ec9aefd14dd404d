import { unitOfWork } from '@platform/db';
import { wallets } from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { moveSession } from '@platform/verification-lifecycle';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../test/verification-fixtures.js';

const forgedCursor = (time: string) =>
  Buffer.from(`${time}|00000000-0000-4000-8000-000000000000`).toString('base64url');

describe('GET /v1/wallet', () => {
  const suite = useTestApp();
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme, globex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
  });

  const wallet = (key: string) =>
    suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': key } });

  it("shows the key's environment's balances in whole KES", async () => {
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    await fundWallet(suite.db, acme.id, 'test', 300);
    await createdSessionId(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company' });

    const live = await wallet(acme.liveKey);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({
      success: true,
      data: { environment: 'live', currency: 'KES', available: 9_800, held: 200 },
    });
    expect((await wallet(acme.testKey)).json()).toEqual({
      success: true,
      data: { environment: 'test', currency: 'KES', available: 300, held: 0 },
    });
  });

  it("creates an organization's wallet on first look, empty, and never shows another organization's", async () => {
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    expect((await wallet(globex.liveKey)).json().data).toEqual({
      environment: 'live',
      currency: 'KES',
      available: 0,
      held: 0,
    });
    expect(await suite.db.$count(wallets)).toBe(2);
    expect((await wallet(globex.liveKey)).json().data.available).toBe(0);
    expect(await suite.db.$count(wallets)).toBe(2);
  });

  it('needs an API key', async () => {
    const response = await suite.app.inject({ method: 'GET', url: '/v1/wallet' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('unauthorized');
  });
});

describe('GET /v1/wallet/transactions', () => {
  const suite = useTestApp();
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme, globex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
  });

  const statement = (key: string, query = '') =>
    suite.app.inject({
      method: 'GET',
      url: `/v1/wallet/transactions${query}`,
      headers: { 'x-service-api-key': key },
    });

  /** Tops the wallet up as a paid top-up would (main-api's reference). */
  const topUp = (organizationId: string, environment: 'live' | 'test', amount: number, payment: string) =>
    suite.db.transaction((tx) =>
      topUpWallet(
        tx,
        { organizationId, environment },
        { amount, reference: `payment:${payment}`, description: 'Wallet top-up' },
      ),
    );

  it("shows every movement of the key's wallet, newest first, with its session or payment and the balances after it", async () => {
    await topUp(acme.id, 'live', 1_000, 'PAY-live-1');
    const verified = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'person' });
    const canceled = await createdSessionId(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company' });
    const cancel = await suite.app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${canceled}/cancel`,
      headers: { 'x-service-api-key': acme.liveKey },
    });
    expect(cancel.statusCode).toBe(200);
    for (const to of ['processing', 'verified'] as const) {
      await unitOfWork(suite.db, (work) =>
        moveSession(work, { sessionId: verified, to, actor: 'test', now: suite.clock.now() }, {}),
      );
    }

    const response = await statement(acme.liveKey);
    expect(response.statusCode).toBe(200);
    const { transactions, nextCursor } = response.json().data;
    expect(nextCursor).toBeNull();
    expect(
      transactions.map((row: Record<string, unknown>) => {
        const { id, createdAt, description, ...rest } = row;
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number.isNaN(Date.parse(String(createdAt)))).toBe(false);
        return rest;
      }),
    ).toEqual([
      {
        kind: 'capture',
        amount: 50,
        reference: `verification_session:${verified}`,
        sessionId: verified,
        paymentReference: null,
        balanceAfter: { available: 950, held: 0 },
      },
      {
        kind: 'release',
        amount: 200,
        reference: `verification_session:${canceled}`,
        sessionId: canceled,
        paymentReference: null,
        balanceAfter: { available: 950, held: 50 },
      },
      {
        kind: 'hold',
        amount: 200,
        reference: `verification_session:${canceled}`,
        sessionId: canceled,
        paymentReference: null,
        balanceAfter: { available: 750, held: 250 },
      },
      {
        kind: 'hold',
        amount: 50,
        reference: `verification_session:${verified}`,
        sessionId: verified,
        paymentReference: null,
        balanceAfter: { available: 950, held: 50 },
      },
      {
        kind: 'top_up',
        amount: 1_000,
        reference: 'payment:PAY-live-1',
        sessionId: null,
        paymentReference: 'PAY-live-1',
        balanceAfter: { available: 1_000, held: 0 },
      },
    ]);
    expect(transactions.map((row: { description: string | null }) => row.description)).toEqual([
      'kyc verification verified',
      'kyb verification canceled',
      'kyb verification',
      'kyc verification',
      'Wallet top-up',
    ]);
    // The last balances are the wallet's.
    const wallet = await suite.app.inject({
      method: 'GET',
      url: '/v1/wallet',
      headers: { 'x-service-api-key': acme.liveKey },
    });
    expect(wallet.json().data).toMatchObject(transactions[0].balanceAfter);
  });

  it("keeps to the key's environment and organization", async () => {
    await topUp(acme.id, 'live', 500, 'PAY-live');
    await fundWallet(suite.db, acme.id, 'test', 300);
    await topUp(globex.id, 'live', 70, 'PAY-globex');

    const amounts = async (key: string) =>
      (await statement(key)).json().data.transactions.map((row: { amount: number }) => row.amount);
    expect(await amounts(acme.liveKey)).toEqual([500]);
    expect(await amounts(acme.secondLiveKey)).toEqual([500]);
    expect(await amounts(acme.testKey)).toEqual([300]);
    expect(await amounts(globex.liveKey)).toEqual([70]);
    expect(await amounts(globex.testKey)).toEqual([]);
  });

  it('pages by cursor, 20 by default and up to 100', async () => {
    for (let i = 1; i <= 23; i += 1) await topUp(acme.id, 'test', i, `PAY-${i}`);

    const first = (await statement(acme.testKey)).json().data;
    expect(first.transactions).toHaveLength(20);
    expect(first.transactions[0].amount).toBe(23);
    const rest = (await statement(acme.testKey, `?cursor=${first.nextCursor}`)).json().data;
    expect(rest.transactions.map((row: { amount: number }) => row.amount)).toEqual([3, 2, 1]);
    expect(rest.nextCursor).toBeNull();

    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const page: { transactions: Array<{ amount: number }>; nextCursor: string | null } = (
        await statement(acme.testKey, `?limit=7${cursor === null ? '' : `&cursor=${cursor}`}`)
      ).json().data;
      pages.push(page.transactions.map((row) => row.amount));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 2]);
    expect(pages.flat()).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
    expect((await statement(acme.testKey, '?limit=100')).json().data.transactions).toHaveLength(23);
  });

  it.each([
    ['?limit=0', 'querystring/limit'],
    ['?limit=101', 'querystring/limit'],
    ['?limit=ten', 'querystring/limit'],
    ['?cursor=bm90LWEtY3Vyc29y', 'querystring/cursor'],
    // Forged cursors whose time PostgreSQL refuses (year 0, no such day): a 400, never the database's 500.
    [`?cursor=${forgedCursor('0000-01-01T00:00:00.000000Z')}`, 'querystring/cursor'],
    [`?cursor=${forgedCursor('2026-13-45T99:99:99.000000Z')}`, 'querystring/cursor'],
    ['?environment=live', 'querystring/environment'],
  ])('answers %s with a 400 naming it', async (query, path) => {
    const response = await statement(acme.liveKey, query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('needs an API key', async () => {
    const response = await suite.app.inject({ method: 'GET', url: '/v1/wallet/transactions' });
    expect(response.statusCode).toBe(401);
  });
});
