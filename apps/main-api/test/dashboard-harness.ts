import type { MembershipRole } from '@platform/db';
import type { StatementLog } from '@platform/db/testing';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { MainApiDeps } from '../src/app.js';
import { signAccessToken } from '../src/auth/tokens.js';
import { createTestApp, insertOrganization, TEST_AUDIENCE, TEST_SECRET, type TestApp } from './helpers.js';
import { followToCallback, startTestProvider, type TestAccount, type TestProvider } from './oidc-test-provider.js';

// The dashboard as its page tests meet it: main-api with a real OpenID Provider (oidc-provider on port 0), and a
// browser's sign-in as one account (the sealed cookie and a page's form token), so each test acts as a user; an
// organization of signed-in members, each in a role; the API's bearer token for a user.

/** The members of an organization a test makes, one account a role. */
type MembersByRole = Partial<Record<MembershipRole, TestAccount>>;

const PUBLIC_URL = 'http://main-api.test';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export interface DashboardHarness {
  t: TestApp;
  provider: TestProvider;
  /** Signs in as the account through the provider; the cookie a browser would then send. */
  signIn(account: TestAccount): Promise<string>;
  /**
   * Signs in as the account from a browser that holds `cookie` already (say, one a page sent to sign in): its form,
   * the provider, then the callback, whose answer this is.
   */
  signInWith(account: TestAccount, cookie: string): Promise<LightMyRequestResponse>;
  /**
   * Signs in each account (the first sign-in makes its profile), then makes an organization (activated unless said)
   * with them as its members, each in its role: the organization's id and each role's cookie.
   */
  organizationWith<Members extends MembersByRole>(
    name: string,
    members: Members,
    options?: { activated?: boolean },
  ): Promise<{ id: string; cookies: { [Role in keyof Members]: string } }>;
  /** The API's bearer token for the user, from the provider the app trusts. */
  apiToken(userId: string): Promise<string>;
  /** GET as a browser with that cookie. */
  get(url: string, cookie: string): Promise<LightMyRequestResponse>;
  /** POSTs a form with the cookie and the form token of the page at `from`. */
  post(url: string, cookie: string, fields?: Record<string, string>, from?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export function cookieOf(response: { headers: Record<string, unknown> }, previous = ''): string {
  const line = ([response.headers['set-cookie'] ?? []].flat() as string[]).find((each) =>
    each.startsWith('__Host-dashboard='),
  );
  return line === undefined ? previous : (line.split(';')[0] ?? previous);
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('the page has no form token');
  return match[1];
}

export async function startDashboardHarness(
  options: Pick<Partial<MainApiDeps>, 'now' | 'mail'> & { env?: NodeJS.ProcessEnv; statementLog?: StatementLog } = {},
): Promise<DashboardHarness> {
  const { env, statementLog, ...deps } = options;
  const redirectUri = `${PUBLIC_URL}/login/callback`;
  const provider = await startTestProvider({ redirectUri, audience: TEST_AUDIENCE });
  const t = await createTestApp({
    env: {
      PUBLIC_URL,
      AUTH_ISSUER: provider.issuer,
      AUTH_JWKS_URL: provider.jwksUrl,
      DASHBOARD_OIDC_ISSUER: provider.issuer,
      DASHBOARD_OIDC_CLIENT_ID: 'dashboard',
      DASHBOARD_OIDC_SCOPES: 'openid email profile api',
      ...env,
    },
    deps,
    ...(statementLog === undefined ? {} : { statementLog }),
  });
  const get = (url: string, cookie: string): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'GET', url, headers: { cookie } });
  /** A sign-in from a browser holding `cookie` ('' for none): the callback's answer and the cookie it leaves. */
  const signInFrom = async (account: TestAccount, cookie: string) => {
    provider.next = account;
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: cookie === '' ? {} : { cookie } });
    const started = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { ...FORM, cookie: cookieOf(page, cookie) },
      payload: new URLSearchParams({ _csrf: csrfOf(page.body) }).toString(),
    });
    expect(started.statusCode).toBe(303);
    const signingIn = cookieOf(started, cookieOf(page, cookie));
    const back = await t.app.inject({
      method: 'GET',
      url: `/login/callback${(await followToCallback(String(started.headers.location), redirectUri)).search}`,
      headers: { cookie: signingIn },
    });
    return { back, cookie: cookieOf(back, signingIn) };
  };
  const signIn = async (account: TestAccount): Promise<string> => {
    const { back, cookie } = await signInFrom(account, '');
    expect(back.statusCode).toBe(303);
    return cookie;
  };
  return {
    t,
    provider,
    get,
    signIn,
    async signInWith(account, cookie) {
      return (await signInFrom(account, cookie)).back;
    },
    async organizationWith(name, members, options = {}) {
      const cookies: Record<string, string> = {};
      const memberships: { userId: string; role: MembershipRole }[] = [];
      for (const [role, account] of Object.entries(members) as [MembershipRole, TestAccount | undefined][]) {
        if (account === undefined) continue;
        cookies[role] = await signIn(account);
        memberships.push({ userId: account.sub, role });
      }
      const id = await insertOrganization(t.db, { name, members: memberships, ...options });
      return { id, cookies: cookies as { [Role in keyof typeof members]: string } };
    },
    apiToken(userId) {
      return signAccessToken({
        secret: TEST_SECRET,
        issuer: provider.issuer,
        audience: TEST_AUDIENCE,
        subject: userId,
      });
    },
    async post(url, cookie, fields = {}, from = '/dashboard') {
      const page = await get(from, cookie);
      return t.app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, cookie: cookieOf(page, cookie) },
        payload: new URLSearchParams({ ...fields, _csrf: csrfOf(page.body) }).toString(),
      });
    },
    async close() {
      await t.close();
      await provider.close();
    },
  };
}
