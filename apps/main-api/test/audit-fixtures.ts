import type { AuditEvent } from '@platform/db/schema';
import { auditEvents, memberships, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BillingTestApp, startBillingApp } from './billing-fixtures.js';
import { tokenFor } from './helpers.js';

// The changes the audit log records, made through the routes as members of each role: each recorded once, in the
// change's transaction, with its actor, target, request id and IP; nothing for a refused or failed change; never
// a secret.
//
// One billing app for an audit recording test file, with a developer, a billing member and a plain member beside
// the payer, and what the tests ask of the log: the events an action recorded and the context they carry.

export const DEVELOPER = 'user_audit_developer';
export const BILLING = 'user_audit_billing';
export const MEMBER = 'user_audit_member';
/** What `inject` gives as the client's address. */
const CLIENT_IP = '127.0.0.1';

/** The context of an event the platform recorded by itself (a renewal): no user, request or address. */
export const PLATFORM = { actorUserId: null, requestId: null, ip: null };

export interface AuditTestApp {
  readonly t: BillingTestApp;
  send(
    userId: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    extraHeaders?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  allEvents(): Promise<AuditEvent[]>;
  /** The events recorded while `act` ran (the log is append-only, so those are the rows that were not there before). */
  recordedBy(act: () => Promise<unknown>): Promise<AuditEvent[]>;
  /** The context a request's events carry: its user, its x-request-id and the client's address. */
  madeBy(
    userId: string,
    response: { headers: Record<string, unknown> },
  ): { actorUserId: string; requestId: unknown; ip: string };
}

export function useAuditApp(): AuditTestApp {
  let t: BillingTestApp | undefined;

  beforeAll(async () => {
    t = await startBillingApp();
    for (const [userId, role] of [
      [DEVELOPER, 'developer'],
      [BILLING, 'billing'],
      [MEMBER, 'member'],
    ] as const) {
      await t.db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const setup: AuditTestApp = {
    get t() {
      if (t === undefined) throw new Error('the audit app is built in beforeAll');
      return t;
    },
    async send(userId, method, url, payload, extraHeaders = {}) {
      const app = setup.t;
      return app.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${await tokenFor(userId, { now: app.clock.now(), expiresIn: 3600 })}`,
          'x-organization-id': app.organizationId,
          ...extraHeaders,
        },
        ...(payload === undefined ? {} : { payload }),
      });
    },
    async allEvents() {
      return setup.t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, setup.t.organizationId));
    },
    async recordedBy(act) {
      const before = new Set((await setup.allEvents()).map((event) => event.id));
      await act();
      return (await setup.allEvents()).filter((event) => !before.has(event.id));
    },
    madeBy(userId, response) {
      return { actorUserId: userId, requestId: response.headers['x-request-id'], ip: CLIENT_IP };
    },
  };
  return setup;
}
