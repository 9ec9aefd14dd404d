import { randomUUID } from 'node:crypto';
import { auditEvents, memberships, notifications, organizations, verificationSessions } from '@platform/db/schema';
import { activateOrganization, commitMove } from '@platform/verification-lifecycle';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { ORGANIZATION_NOT_FOUND, refusalMessage } from '../organizations/index.js';
import { ACTIVATION_OPEN, ACTIVATION_STARTED } from './routes.js';
import { ALREADY_ACTIVATED } from './service.js';

// Going live (docs/decisions.md#going-live): a new organization works in test mode at once; live API keys and live
// top-ups wait for its activation, which the platform's KYB session of it gives, once, when verified.

const PLATFORM_ORGANIZATION_ID = randomUUID();
const VERIFY_URL = 'https://verify.test.example';
const OWNER = 'user_activation_owner';
const CO_OWNER = 'user_activation_co_owner';
const ADMIN = 'user_activation_admin';
const OUTSIDER = 'user_activation_outsider';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { PLATFORM_ORGANIZATION_ID, VERIFY_URL } });
  for (const id of [OWNER, CO_OWNER, ADMIN, OUTSIDER]) await insertUser(t.db, { id });
  await insertOrganization(t.db, { id: PLATFORM_ORGANIZATION_ID, name: 'Platform' });
});
afterAll(async () => {
  await t?.close();
});

const call = async (userId: string, method: 'GET' | 'POST', url: string, payload?: unknown, headers = {}) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(await authHeader(userId)),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

/** An organization created through the API (so not activated), with a co-owner and an admin. */
async function newOrganization(): Promise<string> {
  const created = await call(OWNER, 'POST', '/v1/organizations', { name: `Going Live ${randomUUID().slice(0, 8)}` });
  expect(created.statusCode).toBe(201);
  const id = created.json().data.id as string;
  await t.db.insert(memberships).values([
    { organizationId: id, userId: CO_OWNER, role: 'owner' },
    { organizationId: id, userId: ADMIN, role: 'admin' },
  ]);
  return id;
}

const lifecycle = { platformOrganizationId: PLATFORM_ORGANIZATION_ID };

/** Moves the activation session to processing, then to `outcome`, as a reviewer's decision does. */
async function decide(sessionId: string, outcome: 'verified' | 'rejected', reason?: string) {
  await commitMove(t.db, { sessionId, to: 'processing', actor: 'hosted_page', now: new Date() }, lifecycle);
  await commitMove(
    t.db,
    { sessionId, to: outcome, actor: 'reviewer:user_platform_reviewer', now: new Date(), reason: reason ?? null },
    lifecycle,
  );
}

const createKey = (id: string, environment: 'live' | 'test') =>
  call(OWNER, 'POST', '/v1/api-keys', { environment }, { 'x-organization-id': id });

describe('a new organization', () => {
  it('works in test mode and refuses live keys and live top-ups with organization_not_activated', async () => {
    const id = await newOrganization();
    const state = await call(ADMIN, 'GET', `/v1/organizations/${id}/activation`);
    expect(state.statusCode).toBe(200);
    expect(state.json().data).toEqual({
      state: 'not_started',
      activatedAt: null,
      reason: expect.stringContaining('start the verification'),
      session: null,
    });

    const inbox = await t.db
      .select({ title: notifications.title, message: notifications.message, actionUrl: notifications.actionUrl })
      .from(notifications)
      .where(and(eq(notifications.organizationId, id), eq(notifications.userId, OWNER)));
    expect(inbox).toEqual([
      {
        title: 'Verify your business to go live',
        message: expect.stringContaining('on the Going live page'),
        actionUrl: `/dashboard/activation?org=${id}`,
      },
    ]);
    expect(inbox[0]?.message).not.toContain('/v1/');

    expect((await createKey(id, 'test')).statusCode).toBe(201);
    const live = await createKey(id, 'live');
    expect(live.statusCode).toBe(403);
    expect(live.json()).toMatchObject({
      success: false,
      code: 'organization_not_activated',
      error: expect.stringContaining(`POST /v1/organizations/${id}/activation`),
    });
    const topUp = await call(
      OWNER,
      'POST',
      '/v1/billing/pay',
      { method: 'card', amount: 500 },
      { 'x-organization-id': id },
    );
    expect(topUp.statusCode).toBe(403);
    expect(topUp.json()).toMatchObject({
      code: 'organization_not_activated',
      error: expect.stringContaining('live wallet top-ups'),
    });
  });
});

describe('POST /v1/organizations/:id/activation', () => {
  it('opens the KYB session for an owner, answers the open one again, and refuses the others', async () => {
    const id = await newOrganization();
    const url = `/v1/organizations/${id}/activation`;
    const started = await call(OWNER, 'POST', url);
    expect(started.statusCode).toBe(201);
    const body = started.json();
    expect(body).toMatchObject({
      success: true,
      message: ACTIVATION_STARTED,
      data: { state: 'verifying', activatedAt: null },
    });
    const sessionId = body.data.session.sessionId as string;
    expect(body.data.session).toMatchObject({
      status: 'pending',
      verificationUrl: `${VERIFY_URL}/session/${sessionId}`,
    });
    const [session] = await t.db.select().from(verificationSessions).where(eq(verificationSessions.id, sessionId));
    expect(session).toMatchObject({
      organizationId: PLATFORM_ORGANIZATION_ID,
      environment: 'live',
      type: 'kyb',
      externalEndUserId: id,
      price: 0,
      decisionSource: 'manual',
    });

    const again = await call(CO_OWNER, 'POST', url);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: ACTIVATION_OPEN, data: { session: { sessionId } } });

    const admin = await call(ADMIN, 'POST', url);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().error).toBe(refusalMessage('organization:activate'));
    const outsider = await call(OUTSIDER, 'POST', url);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().error).toBe(ORGANIZATION_NOT_FOUND);
    expect((await call(OUTSIDER, 'GET', url)).statusCode).toBe(404);
  });

  it('activates the organization once its session is verified: audit record, owners told, live unlocked', async () => {
    const id = await newOrganization();
    const started = await call(OWNER, 'POST', `/v1/organizations/${id}/activation`);
    const sessionId = started.json().data.session.sessionId as string;
    await decide(sessionId, 'verified');

    const state = await call(ADMIN, 'GET', `/v1/organizations/${id}/activation`);
    expect(state.json().data).toMatchObject({
      state: 'activated',
      activatedAt: expect.any(String),
      reason: null,
      session: { sessionId, status: 'verified' },
    });
    expect((await createKey(id, 'live')).statusCode).toBe(201);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'organization.activated')));
    expect(audit).toEqual([
      expect.objectContaining({
        actorUserId: null,
        targetId: id,
        details: { sessionId, decidedBy: 'reviewer:user_platform_reviewer' },
      }),
    ]);
    const told = await t.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.organizationId, id), eq(notifications.title, 'Your organization is live')));
    expect(told.map((row) => row.userId).sort()).toEqual([CO_OWNER, OWNER].sort());

    // Exactly once: nothing activates it again.
    expect(await activateOrganization(t.db, id, { operator: 'test' })).toBe(false);
    const again = await call(OWNER, 'POST', `/v1/organizations/${id}/activation`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(ALREADY_ACTIVATED);
    expect(
      await t.db.$count(
        auditEvents,
        and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'organization.activated')),
      ),
    ).toBe(1);
  });

  it('says why after a rejection and opens a new session on the next start', async () => {
    const id = await newOrganization();
    const first = (await call(OWNER, 'POST', `/v1/organizations/${id}/activation`)).json().data.session.sessionId;
    await decide(first, 'rejected', 'The CR12 is older than a year');
    const state = (await call(OWNER, 'GET', `/v1/organizations/${id}/activation`)).json().data;
    expect(state).toMatchObject({
      state: 'not_started',
      reason: expect.stringContaining('The CR12 is older than a year'),
      session: { sessionId: first, status: 'rejected', lastError: 'The CR12 is older than a year' },
    });
    expect((await createKey(id, 'live')).statusCode).toBe(403);
    const next = await call(OWNER, 'POST', `/v1/organizations/${id}/activation`);
    expect(next.statusCode).toBe(201);
    expect(next.json().data.session.sessionId).not.toBe(first);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row?.activationSessionId).toBe(next.json().data.session.sessionId);
  });

  it('activates nothing for a verified platform KYB session no organization started', async () => {
    const id = await newOrganization();
    await call(OWNER, 'POST', `/v1/organizations/${id}/activation`);
    const other = await newOrganization();
    const otherSession = (await call(OWNER, 'POST', `/v1/organizations/${other}/activation`)).json().data.session
      .sessionId;
    await decide(otherSession, 'verified');
    expect((await call(OWNER, 'GET', `/v1/organizations/${id}/activation`)).json().data.state).toBe('verifying');
  });
});

describe.skipIf(missing(postgresServer))('activation under concurrency (real PostgreSQL)', () => {
  it('opens one session when owners start it at once', async () => {
    const id = await newOrganization();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 === 0 ? OWNER : CO_OWNER, 'POST', `/v1/organizations/${id}/activation`),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.json().data.session.sessionId)).size).toBe(1);
    expect(await t.db.$count(verificationSessions, eq(verificationSessions.externalEndUserId, id))).toBe(1);
  });
});
