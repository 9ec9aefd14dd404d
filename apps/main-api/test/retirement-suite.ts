import type { MailSubscription } from '@platform/db';
import { mailSubscriptions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type RetirementTestApp, retire, startRetirementApp } from './retirement-fixtures.js';

/** The retirement suites: the app with its fake providers, and what they read and do in it. */
export interface RetirementSuite {
  readonly r: RetirementTestApp;
  /** The organization's mail subscription row, if it has one. */
  subscriptionRowOf(organizationId: string): Promise<MailSubscription | undefined>;
  /** Retires the organization (DELETE /v1/organizations/:id), which its money history keeps from being deleted. */
  retired(organizationId: string): Promise<void>;
}

/**
 * Registers the suite's hooks: before it, the retirement app (a request a fake provider leaves unanswered times out at
 * once); before each test, the providers behaving normally, no log lines, the clock at the present; after it, all
 * closed. Read `r` inside tests or hooks.
 */
export function useRetirementSuite(): RetirementSuite {
  let app: RetirementTestApp | undefined;
  const r = (): RetirementTestApp => {
    if (app === undefined) throw new Error('The retirement app is started before the suite runs');
    return app;
  };

  beforeAll(async () => {
    app = await startRetirementApp();
    app.t.timeouts.expireOnHang(app.paystack.server);
    app.t.timeouts.expireOnHang(app.daraja.server);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => {
    r().paystack.behaviour('normal');
    r().daraja.behaviour('normal');
    r().logs.lines.length = 0;
    r().t.clock.set(new Date());
  });

  return {
    get r() {
      return r();
    },
    async subscriptionRowOf(organizationId) {
      const [row] = await r()
        .t.db.select()
        .from(mailSubscriptions)
        .where(eq(mailSubscriptions.organizationId, organizationId));
      return row;
    },
    async retired(organizationId) {
      const response = await retire(r().t, organizationId);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.deleted).toBe(false);
    },
  };
}
