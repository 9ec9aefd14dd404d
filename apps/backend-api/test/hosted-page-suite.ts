import { verificationConsents, verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeEach, expect } from 'vitest';
import type { BackendApp } from '../src/app.js';
import { buildTestApp, replaceOrganizations, type TestOrganization, useTestApp } from './app-fixtures.js';
import { HOSTED_PAGE_TEST_SECRET, testFormToken } from './hosted-page-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from './verification-fixtures.js';

/** The hosted page's CSP without allowed origins: its inline styles, posts to itself, and nothing else. */
export const HOSTED_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * A suite of the hosted page's routes (routes.test.ts, consent.test.ts): one app and database, an organization with
 * funded wallets made anew before each test, and what a person's browser and the customer's backend do.
 */
export function hostedPageSuite() {
  const suite = useTestApp({ env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET } });
  const { clock } = suite;
  let acme: TestOrganization | undefined;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme Secret Holdings');
    await fundWallet(suite.db, organization().id, 'live', 1_000);
    await fundWallet(suite.db, organization().id, 'test', 1_000);
  });

  const organization = (): TestOrganization => {
    if (acme === undefined) throw new Error('The organization is made before each test');
    return acme;
  };
  const page = (id: string, query = '', on: BackendApp = suite.app) =>
    on.inject({ method: 'GET', url: `/session/${id}${query}` });
  const post = (id: string, fields: Record<string, string>, on: BackendApp = suite.app) =>
    on.inject({
      method: 'POST',
      url: `/session/${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const newTestSession = (body: object = {}) =>
    createdSessionId(suite.app, organization().testKey, {
      type: 'kyc',
      externalEndUserId: 'private-end-user-77',
      appName: 'Acme Wallet',
      ...body,
    });
  /** The person agrees to the consent notice, as the page's "I agree" button posts it. */
  const agree = (id: string, extra: Record<string, string> = {}, on: BackendApp = suite.app) =>
    post(id, { token: testFormToken(id), action: 'agree', ...extra }, on);

  return {
    suite,
    clock,
    /** The organization of the tests, with its live and test keys. */
    get acme() {
      return organization();
    },
    page,
    post,
    // A second passes between clicks, so the history reads in order.
    act: (id: string, action: string, extra: Record<string, string> = {}) => {
      clock.advance(1000);
      return post(id, { token: testFormToken(id), action, ...extra });
    },
    agree,
    consentsOf: (id: string) =>
      suite.db.select().from(verificationConsents).where(eq(verificationConsents.sessionId, id)),
    newTestSession,
    /** A test session whose person has agreed to the consent notice: the page shows its status and buttons. */
    testSession: async (body: object = {}) => {
      const id = await newTestSession(body);
      expect((await agree(id)).headers.location).toBe(`${id}?notice=consent_recorded`);
      return id;
    },
    /** Runs `work` with a second app on the same database, configured with `env` as well. */
    withApp: async (env: Record<string, string>, work: (app: BackendApp) => Promise<void>) => {
      const app = await buildTestApp(suite.handle, {
        now: clock.now,
        env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET, ...env },
      });
      try {
        await work(app);
      } finally {
        await app.close();
      }
    },
    apiKeyIdOfSession: async (id: string) => {
      const [session] = await suite.db
        .select({ apiKeyId: verificationSessions.apiKeyId })
        .from(verificationSessions)
        .where(eq(verificationSessions.id, id));
      return session?.apiKeyId;
    },
  };
}
