import { auditEvents, organizations, users } from '@platform/db/schema';
import { captureLogs, type LogCapture } from '@platform/http/testing';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { MailMessage, MailSender } from '../src/mail/mail-sender.js';
import { createTestApp, insertOrganization, insertUser, type TestApp, tokenFor } from './helpers.js';

// One app for an invitations test file, with a clock the tests move, a mail sender that keeps what it is asked to
// send, and the organization Acme Ltd (an owner, an admin, a developer and a member) laid anew before each test.

export const OWNER = 'user_invitations_owner';
export const ADMIN = 'user_invitations_admin';
export const DEVELOPER = 'user_invitations_developer';
export const MEMBER = 'user_invitations_member';
export const INVITEE = 'user_invitations_invitee';
export const OUTSIDER = 'user_invitations_outsider';
export const INVITEE_EMAIL = 'Invitee.Person@Example.com';
export const NOW = new Date('2024-06-15T12:00:00.000Z');
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
export const UNKNOWN_ID = '3f9a1c1e-7a4b-4e8e-9d55-0d0f6f1d2c3b';

export interface InvitationsTestApp {
  readonly t: TestApp;
  /** Acme Ltd, where OWNER, ADMIN, DEVELOPER and MEMBER are members. */
  readonly orgId: string;
  /** Other, where OUTSIDER is the only member. */
  readonly otherOrgId: string;
  /** What the mail sender was asked to send since the test began. */
  sent: MailMessage[];
  logs: LogCapture;
  /** Moves the app's clock to `to` (NOW at the start of each test), and gives it back. */
  setClock(to: Date): Date;
  /** Fails every send from now on in this test (with the address in its message, as servers do). */
  failMail(): void;
  invite(
    payload: object,
    userId?: string,
    organizationId?: string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Invites by `email` as the owner, which must answer 201; gives the invitation. */
  invited(email?: string, role?: string): Promise<{ id: string; acceptUrl: string }>;
  list(userId?: string, organizationId?: string): Promise<LightMyRequestResponse>;
  revoke(invitationId: string, userId?: string, organizationId?: string): Promise<LightMyRequestResponse>;
  /** Accepts as `userId`, whose token carries `email` (none when null). */
  accept(invitationId: string, userId?: string, email?: string | null): Promise<LightMyRequestResponse>;
  auditOf(organizationId: string): Promise<Array<typeof auditEvents.$inferSelect>>;
}

export function useInvitationsApp(): InvitationsTestApp {
  const sent: MailMessage[] = [];
  let failing = false;
  const mail: MailSender = {
    kind: 'smtp',
    async send(message) {
      if (failing) {
        throw Object.assign(new Error(`550 <${message.to}> rejected`), { code: 'EENVELOPE', responseCode: 550 });
      }
      sent.push(message);
    },
    async close() {},
  };
  const logs = captureLogs();
  let clock = NOW;
  let t: TestApp | undefined;
  let orgId = '';
  let otherOrgId = '';

  beforeAll(async () => {
    t = await createTestApp({ deps: { now: () => clock, mail, logger: logs.logger } });
  });
  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    clock = NOW;
    sent.length = 0;
    failing = false;
    const { db } = app.t;
    await db.delete(organizations);
    await db.delete(users);
    await insertUser(db, { id: OWNER, email: 'owner@acme.example', firstName: 'Olive', lastName: 'Owner' });
    for (const id of [ADMIN, DEVELOPER, MEMBER, OUTSIDER]) await insertUser(db, { id });
    orgId = await insertOrganization(db, {
      name: 'Acme Ltd',
      members: [
        { userId: OWNER, role: 'owner' },
        { userId: ADMIN, role: 'admin' },
        { userId: DEVELOPER, role: 'developer' },
        { userId: MEMBER, role: 'member' },
      ],
    });
    otherOrgId = await insertOrganization(db, { name: 'Other', members: [{ userId: OUTSIDER }] });
  });

  async function bearer(userId: string, email?: string) {
    return { authorization: `Bearer ${await tokenFor(userId, email === undefined ? {} : { email })}` };
  }

  const app: InvitationsTestApp = {
    get t() {
      if (t === undefined) throw new Error('the invitations app is built in beforeAll');
      return t;
    },
    get orgId() {
      return orgId;
    },
    get otherOrgId() {
      return otherOrgId;
    },
    sent,
    logs,
    setClock(to) {
      clock = to;
      return to;
    },
    failMail() {
      failing = true;
    },
    async invite(payload, userId = OWNER, organizationId = orgId, headers = {}) {
      return app.t.app.inject({
        method: 'POST',
        url: `/v1/organizations/${organizationId}/invitations`,
        headers: { ...(await bearer(userId)), ...headers },
        payload,
      });
    },
    async invited(email = INVITEE_EMAIL, role = 'developer') {
      const response = await app.invite({ email, role });
      expect(response.statusCode).toBe(201);
      return response.json().data;
    },
    async list(userId = OWNER, organizationId = orgId) {
      return app.t.app.inject({
        method: 'GET',
        url: `/v1/organizations/${organizationId}/invitations`,
        headers: await bearer(userId),
      });
    },
    async revoke(invitationId, userId = OWNER, organizationId = orgId) {
      return app.t.app.inject({
        method: 'DELETE',
        url: `/v1/organizations/${organizationId}/invitations/${invitationId}`,
        headers: await bearer(userId),
      });
    },
    async accept(invitationId, userId = INVITEE, email = 'invitee.person@example.COM') {
      return app.t.app.inject({
        method: 'POST',
        url: `/v1/invitations/${invitationId}/accept`,
        headers: await bearer(userId, email ?? undefined),
      });
    },
    auditOf: (organizationId) =>
      app.t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId)),
  };
  return app;
}
