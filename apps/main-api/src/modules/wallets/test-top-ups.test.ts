import { randomUUID } from 'node:crypto';
import type { MembershipRole } from '@platform/db';
import { auditEvents } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { ORGANIZATION_NOT_FOUND, refusalMessage } from '../organizations/index.js';
import { TEST_WALLET_TOPPED_UP } from './routes.js';

// Test mode that needs nobody (docs/decisions.md#test-credit, docs/decisions.md#test-top-ups): a new organization's
// test wallet starts with the configured test credit, and test top-ups of any amount are instant and free.

const ROLES: MembershipRole[] = ['owner', 'admin', 'developer', 'billing', 'member'];
const userOf = (role: MembershipRole) => `user_test_top_ups_${role}`;
const OUTSIDER = 'user_test_top_ups_outsider';
const CREDIT = 2_500;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { TEST_WALLET_CREDIT: String(CREDIT) } });
  for (const role of ROLES) await insertUser(t.db, { id: userOf(role) });
  await insertUser(t.db, { id: OUTSIDER });
});
afterAll(async () => {
  await t?.close();
});

const as = async (role: MembershipRole | 'outsider') => authHeader(role === 'outsider' ? OUTSIDER : userOf(role));

const call = async (
  role: MembershipRole | 'outsider',
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(await as(role)),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

async function testWalletOf(organizationId: string) {
  const response = await call('owner', 'GET', `/v1/organizations/${organizationId}/wallets/test`);
  expect(response.statusCode).toBe(200);
  return response.json().data as { available: number; held: number };
}

describe('test credit of a new organization', () => {
  it('starts the test wallet of an organization created through the API with the configured credit', async () => {
    const created = await call('owner', 'POST', '/v1/organizations', { name: 'Test Credit Ltd' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;

    expect(await testWalletOf(id)).toMatchObject({ available: CREDIT, held: 0 });
    const live = await call('owner', 'GET', `/v1/organizations/${id}/wallets/live`);
    expect(live.json().data).toMatchObject({ available: 0, held: 0 });

    const statement = await call('owner', 'GET', `/v1/organizations/${id}/wallets/test/transactions`);
    expect(statement.json().data.transactions).toEqual([expect.objectContaining({ kind: 'top_up', amount: CREDIT })]);
  });

  it('makes a new organization one with money history: DELETE retires it and keeps its ledger', async () => {
    const created = await call('owner', 'POST', '/v1/organizations', { name: 'Short Lived Ltd' });
    const id = created.json().data.id as string;
    const ended = await call('owner', 'DELETE', `/v1/organizations/${id}`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().data).toMatchObject({ id, deleted: false, retiredAt: expect.any(String) });
  });

  it('gives a wallet first used later (an organization without wallets) the credit once', async () => {
    const id = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'owner' }] });
    expect(await testWalletOf(id)).toMatchObject({ available: CREDIT });
    expect(await testWalletOf(id)).toMatchObject({ available: CREDIT });
  });
});

describe('POST /v1/organizations/:id/wallets/test/top-ups', () => {
  it('adds the amount at once for the roles that may, 403 for a member and 404 for anyone else', async () => {
    const id = await insertOrganization(t.db, { members: ROLES.map((role) => ({ userId: userOf(role), role })) });
    const other = await insertOrganization(t.db, { members: [{ userId: OUTSIDER, role: 'owner' }] });
    const url = `/v1/organizations/${id}/wallets/test/top-ups`;
    let expected = CREDIT;
    for (const role of ['owner', 'admin', 'developer', 'billing'] as const) {
      const response = await call(role, 'POST', url, { amount: 1_000 });
      expected += 1_000;
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        success: true,
        message: TEST_WALLET_TOPPED_UP,
        data: { transactionId: expect.any(String), wallet: { environment: 'test', available: expected, held: 0 } },
      });
    }
    const refused = await call('member', 'POST', url, { amount: 1_000 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', error: refusalMessage('wallet:test_top_up') });
    const outsider = await call('outsider', 'POST', url, { amount: 1_000 });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().error).toBe(ORGANIZATION_NOT_FOUND);
    const elsewhere = await call('owner', 'POST', `/v1/organizations/${other}/wallets/test/top-ups`, { amount: 1 });
    expect(elsewhere.statusCode).toBe(404);

    expect(await testWalletOf(id)).toMatchObject({ available: expected });
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'wallet.test_topped_up')));
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({ targetType: 'wallet', targetId: 'test', details: { amount: 1_000 } });
  });

  it('takes any amount up to KES 1,000,000,000, never touches the live wallet', async () => {
    const id = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'owner' }] });
    const response = await call('owner', 'POST', `/v1/organizations/${id}/wallets/test/top-ups`, {
      amount: 1_000_000_000,
    });
    expect(response.statusCode).toBe(201);
    expect(await testWalletOf(id)).toMatchObject({ available: 1_000_000_000 + CREDIT });
    const live = await call('owner', 'GET', `/v1/organizations/${id}/wallets/live`);
    expect(live.json().data).toMatchObject({ available: 0 });
  });

  it('refuses bad amounts and unknown fields with 400, changing nothing', async () => {
    const id = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'owner' }] });
    await testWalletOf(id);
    const before = await tableChecksums(t.db);
    for (const body of [
      {},
      { amount: 0 },
      { amount: -5 },
      { amount: 10.5 },
      { amount: '100' },
      { amount: 1_000_000_001 },
      { amount: 5, environment: 'live' },
    ]) {
      const response = await call('owner', 'POST', `/v1/organizations/${id}/wallets/test/top-ups`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    }
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('answers a retry with the same Idempotency-Key with the first top-up, crediting once', async () => {
    const id = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'owner' }] });
    const url = `/v1/organizations/${id}/wallets/test/top-ups`;
    const key = randomUUID();
    const first = await call('owner', 'POST', url, { amount: 700 }, { 'idempotency-key': key });
    const retry = await call('owner', 'POST', url, { amount: 700 }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.transactionId).toBe(first.json().data.transactionId);
    expect(await testWalletOf(id)).toMatchObject({ available: CREDIT + 700 });
    const reused = await call('owner', 'POST', url, { amount: 800 }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(422);
  });
});
