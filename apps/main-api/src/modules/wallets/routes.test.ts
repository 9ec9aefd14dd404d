import { randomUUID } from 'node:crypto';
import type { ApiKeyEnvironment, MembershipRole } from '@platform/db';
import { auditEvents, wallets, webhookEvents } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import { captureHold, placeHold, releaseHold, topUpWallet } from '@platform/ledger';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { ORGANIZATION_NOT_FOUND } from '../organizations/index.js';
import { WALLET_SETTINGS_UPDATED } from './routes.js';

// The organization's wallets on the main API: balances and threshold for every member, the threshold set by the
// billing roles, and the statement of each environment (the ledger's query: its content for every kind of movement
// is tested in packages/ledger, the alert itself there and in backend-api's session creation).

const ROLES: MembershipRole[] = ['owner', 'admin', 'developer', 'billing', 'member'];
const userOf = (role: MembershipRole) => `user_wallets_${role}`;
const OUTSIDER = 'user_wallets_outsider';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) await insertUser(t.db, { id: userOf(role) });
  await insertUser(t.db, { id: OUTSIDER });
});
afterAll(async () => {
  await t?.close();
});

/** A new organization with one member of each role; the outsider owns another. */
async function organizationWithTeam(): Promise<{ id: string; other: string }> {
  const id = await insertOrganization(t.db, { members: ROLES.map((role) => ({ userId: userOf(role), role })) });
  const other = await insertOrganization(t.db, { members: [{ userId: OUTSIDER, role: 'owner' }] });
  return { id, other };
}

const as = async (role: MembershipRole | 'outsider') => authHeader(role === 'outsider' ? OUTSIDER : userOf(role));

const get = async (role: MembershipRole | 'outsider', url: string) =>
  t.app.inject({ method: 'GET', url, headers: await as(role) });

const patch = async (role: MembershipRole | 'outsider', url: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: { ...(await as(role)), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

const move = <T>(work: Parameters<typeof t.db.transaction<T>>[0]) => t.db.transaction(work);

describe('GET /v1/organizations/:id/wallets[/:environment]', () => {
  it('shows both wallets, live first, to every member, and nothing to anyone else', async () => {
    const { id, other } = await organizationWithTeam();
    await move((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: 900, reference: `payment:PAY-${id}` }),
    );
    await move((tx) =>
      placeHold(
        tx,
        { organizationId: id, environment: 'live' },
        { amount: 50, reference: `verification_session:${randomUUID()}` },
      ),
    );

    for (const role of ROLES) {
      const response = await get(role, `/v1/organizations/${id}/wallets`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          wallets: [
            {
              environment: 'live',
              currency: 'KES',
              available: 850,
              held: 50,
              lowBalanceThreshold: null,
              lowBalanceAlertedAt: null,
            },
            {
              // First used here, so created with its test credit (docs/decisions.md#test-credit).
              environment: 'test',
              currency: 'KES',
              available: t.config.testWalletCredit,
              held: 0,
              lowBalanceThreshold: null,
              lowBalanceAlertedAt: null,
            },
          ],
        },
      });
    }
    const one = await get('member', `/v1/organizations/${id}/wallets/live`);
    expect(one.json().data).toMatchObject({ environment: 'live', available: 850, held: 50 });

    for (const url of [`/v1/organizations/${id}/wallets`, `/v1/organizations/${id}/wallets/test`]) {
      const response = await get('outsider', url);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(ORGANIZATION_NOT_FOUND);
    }
    // Another organization's wallet is the outsider's own: the team's members cannot see it either.
    expect((await get('owner', `/v1/organizations/${other}/wallets/live`)).statusCode).toBe(404);
    expect((await get('owner', `/v1/organizations/${randomUUID()}/wallets`)).statusCode).toBe(404);
    expect((await get('owner', `/v1/organizations/${id}/wallets/staging`)).statusCode).toBe(400);
  });
});

describe('PATCH /v1/organizations/:id/wallets/:environment', () => {
  it('lets owners, admins and billing set or clear the threshold of one environment, recorded in the audit log', async () => {
    const { id } = await organizationWithTeam();
    const url = (environment: ApiKeyEnvironment) => `/v1/organizations/${id}/wallets/${environment}`;

    const set = await patch('billing', url('live'), { lowBalanceThreshold: 500 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      success: true,
      message: WALLET_SETTINGS_UPDATED,
      data: {
        environment: 'live',
        currency: 'KES',
        available: 0,
        held: 0,
        lowBalanceThreshold: 500,
        lowBalanceAlertedAt: null,
      },
    });
    expect((await patch('admin', url('test'), { lowBalanceThreshold: 0 })).statusCode).toBe(200);
    expect((await patch('owner', url('live'), { lowBalanceThreshold: 750 })).json().data.lowBalanceThreshold).toBe(750);
    expect((await get('member', url('live'))).json().data.lowBalanceThreshold).toBe(750);
    expect((await get('member', url('test'))).json().data.lowBalanceThreshold).toBe(0);

    expect(
      (await patch('owner', url('live'), { lowBalanceThreshold: null })).json().data.lowBalanceThreshold,
    ).toBeNull();
    expect((await get('developer', url('test'))).json().data.lowBalanceThreshold).toBe(0);

    const audit = await t.db
      .select({
        actorUserId: auditEvents.actorUserId,
        action: auditEvents.action,
        targetId: auditEvents.targetId,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, id))
      .orderBy(auditEvents.createdAt, auditEvents.id);
    expect(audit).toEqual([
      {
        actorUserId: userOf('billing'),
        action: 'wallet.low_balance_threshold_changed',
        targetId: 'live',
        details: { environment: 'live', from: null, to: 500 },
      },
      {
        actorUserId: userOf('admin'),
        action: 'wallet.low_balance_threshold_changed',
        targetId: 'test',
        details: { environment: 'test', from: null, to: 0 },
      },
      {
        actorUserId: userOf('owner'),
        action: 'wallet.low_balance_threshold_changed',
        targetId: 'live',
        details: { environment: 'live', from: 500, to: 750 },
      },
      {
        actorUserId: userOf('owner'),
        action: 'wallet.low_balance_threshold_changed',
        targetId: 'live',
        details: { environment: 'live', from: 750, to: null },
      },
    ]);
    // The member's request: its id and the client's address.
    const [first] = await t.db
      .select({ requestId: auditEvents.requestId, ip: auditEvents.ip })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.actorUserId, userOf('billing'))));
    expect(first).toEqual({ requestId: set.headers['x-request-id'], ip: '127.0.0.1' });
  });

  it.each(['developer', 'member'] as const)(
    'refuses the %s role with 403 naming the roles that may, changing nothing',
    async (role) => {
      const { id } = await organizationWithTeam();
      const before = await tableChecksums(t.db);
      const response = await patch(role, `/v1/organizations/${id}/wallets/live`, { lowBalanceThreshold: 100 });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'forbidden',
        error: 'This needs the role owner, admin or billing',
      });
      expect(await tableChecksums(t.db)).toEqual(before);
    },
  );

  it('answers 404 for an organization the caller is not in', async () => {
    const { other } = await organizationWithTeam();
    const response = await patch('owner', `/v1/organizations/${other}/wallets/live`, { lowBalanceThreshold: 100 });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['a negative amount', { lowBalanceThreshold: -1 }, '/lowBalanceThreshold'],
    ['a fraction', { lowBalanceThreshold: 10.5 }, '/lowBalanceThreshold'],
    ['a string', { lowBalanceThreshold: '500' }, '/lowBalanceThreshold'],
    ['more than a number holds exactly', { lowBalanceThreshold: 2 ** 53 }, '/lowBalanceThreshold'],
    ['no threshold', {}, '/lowBalanceThreshold'],
    ['an unknown field', { lowBalanceThreshold: 5, alertEmail: 'a@b.example' }, '/alertEmail'],
  ])('refuses %s with a 400 naming the field, changing nothing', async (_label, body, path) => {
    const { id } = await organizationWithTeam();
    await patch('owner', `/v1/organizations/${id}/wallets/live`, { lowBalanceThreshold: 300 });
    const before = await tableChecksums(t.db);
    const response = await patch('owner', `/v1/organizations/${id}/wallets/live`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(JSON.stringify(response.json().details)).toContain(path);
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('re-arms an alert already sent: the next hold that crosses the threshold alerts again', async () => {
    const { id } = await organizationWithTeam();
    const live = { organizationId: id, environment: 'live' as const };
    await patch('billing', `/v1/organizations/${id}/wallets/live`, { lowBalanceThreshold: 900 });
    await move((tx) => topUpWallet(tx, live, { amount: 1_000, reference: `payment:PAY-${id}` }));
    await move((tx) => placeHold(tx, live, { amount: 200, reference: `verification_session:${randomUUID()}` })); // 800
    const alerted = (await get('member', `/v1/organizations/${id}/wallets/live`)).json().data;
    expect(alerted.lowBalanceAlertedAt).toEqual(expect.any(String));

    const rearmed = await patch('billing', `/v1/organizations/${id}/wallets/live`, { lowBalanceThreshold: 700 });
    expect(rearmed.json().data.lowBalanceAlertedAt).toBeNull();
    await move((tx) => placeHold(tx, live, { amount: 200, reference: `verification_session:${randomUUID()}` })); // 600
    const sent = await t.db
      .select({ payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.organizationId, id), eq(webhookEvents.type, 'wallet.balance_low')));
    expect(
      sent.map(({ payload }) => (payload as { data: { lowBalanceThreshold: number } }).data.lowBalanceThreshold),
    ).toEqual([900, 700]);
  });
});

describe('GET /v1/organizations/:id/wallets/:environment/transactions', () => {
  const statement = (role: MembershipRole | 'outsider', organizationId: string, environment: string, query = '') =>
    get(role, `/v1/organizations/${organizationId}/wallets/${environment}/transactions${query}`);

  it("shows each environment's movements to every member, with the balances after each", async () => {
    const { id } = await organizationWithTeam();
    const live = { organizationId: id, environment: 'live' as const };
    const test = { organizationId: id, environment: 'test' as const };
    const session = randomUUID();
    const expired = randomUUID();
    await move((tx) =>
      topUpWallet(tx, live, { amount: 1_000, reference: 'payment:PAY-main', description: 'Wallet top-up PAY-main' }),
    );
    await move((tx) => placeHold(tx, live, { amount: 200, reference: `verification_session:${session}` }));
    await move((tx) => placeHold(tx, live, { amount: 50, reference: `verification_session:${expired}` }));
    await move((tx) => captureHold(tx, live, `verification_session:${session}`));
    await move((tx) => releaseHold(tx, live, `verification_session:${expired}`));
    await move((tx) => topUpWallet(tx, test, { amount: 40, reference: `manual:${randomUUID()}` }));

    for (const role of ROLES) {
      const response = await statement(role, id, 'live');
      expect(response.statusCode).toBe(200);
      const { transactions, nextCursor } = response.json().data;
      expect(nextCursor).toBeNull();
      expect(
        transactions.map(
          (row: {
            kind: string;
            amount: number;
            sessionId: string | null;
            paymentReference: string | null;
            balanceAfter: unknown;
          }) => [row.kind, row.amount, row.sessionId ?? row.paymentReference, row.balanceAfter],
        ),
      ).toEqual([
        ['release', 50, expired, { available: 800, held: 0 }],
        ['capture', 200, session, { available: 750, held: 50 }],
        ['hold', 50, expired, { available: 750, held: 250 }],
        ['hold', 200, session, { available: 800, held: 200 }],
        ['top_up', 1_000, 'PAY-main', { available: 1_000, held: 0 }],
      ]);
    }
    const testStatement = (await statement('member', id, 'test')).json().data.transactions;
    expect(testStatement).toHaveLength(1);
    expect(testStatement[0]).toMatchObject({ kind: 'top_up', amount: 40, sessionId: null, paymentReference: null });
  });

  it("answers 404 for another organization's wallet and 400 for a bad environment, limit or cursor", async () => {
    const { id, other } = await organizationWithTeam();
    await move((tx) =>
      topUpWallet(tx, { organizationId: other, environment: 'live' }, { amount: 5, reference: `payment:PAY-${other}` }),
    );
    const foreign = await statement('owner', other, 'live');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(ORGANIZATION_NOT_FOUND);
    expect(foreign.body).not.toContain(`PAY-${other}`);

    for (const query of ['?limit=0', '?limit=101', '?cursor=bm90LWEtY3Vyc29y']) {
      const response = await statement('owner', id, 'live', query);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('validation_error');
    }
    expect((await statement('owner', id, 'staging')).statusCode).toBe(400);
  });

  it('pages by cursor, newest first, without repeating or skipping', async () => {
    const { id } = await organizationWithTeam();
    const test = { organizationId: id, environment: 'test' as const };
    for (let i = 1; i <= 12; i += 1) {
      await move((tx) => topUpWallet(tx, test, { amount: i, reference: `manual:${id}:${i}` }));
    }
    const amounts: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const data: { transactions: Array<{ amount: number }>; nextCursor: string | null } = (
        await statement('billing', id, 'test', `?limit=5${cursor === null ? '' : `&cursor=${cursor}`}`)
      ).json().data;
      amounts.push(...data.transactions.map((row) => row.amount));
      cursor = data.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(amounts).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });
});

describe.skipIf(missing(postgresServer))('wallet settings under concurrency (real PostgreSQL)', () => {
  it('records each of concurrent threshold changes against the one it replaced', async () => {
    const { id } = await organizationWithTeam();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        patch(i % 2 === 0 ? 'owner' : 'billing', `/v1/organizations/${id}/wallets/live`, {
          lowBalanceThreshold: (i + 1) * 100,
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    const changes = await t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, id));
    const pairs = changes.map(({ details }) => details as { from: number | null; to: number });
    // One chain from null through every value: no two changes replaced the same setting.
    const froms = pairs.map((pair) => pair.from);
    expect(new Set(froms).size).toBe(10);
    expect(froms.filter((from) => from === null)).toHaveLength(1);
    const tos = new Set(pairs.map((pair) => pair.to));
    const last = [...tos].find((to) => !froms.includes(to));
    const [wallet] = await t.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.organizationId, id), eq(wallets.environment, 'live')));
    expect(wallet!.lowBalanceThreshold).toBe(last);
  });
});
