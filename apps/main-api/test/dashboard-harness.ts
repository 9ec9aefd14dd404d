import type { StatementLog } from '@platform/db/testing';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { MainApiDeps } from '../src/app.js';
import { createTestApp, TEST_AUDIENCE, type TestApp } from './helpers.js';
import { followToCallback, startTestProvider, type TestAccount, type TestProvider } from './oidc-test-provider.js';

// The dashboard as its page tests meet it: main-api with a real OpenID Provider (oidc-provider on port 0), and a
// browser's sign-in as one account (the sealed cookie and a page's form token), so each test acts as a user.

const PUBLIC_URL = 'http://main-api.test';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export interface DashboardHarness {
  t: TestApp;
  provider: TestProvider;
  /** Signs in as the account through the provider; the cookie a browser would then send. */
  signIn(account: TestAccount): Promise<string>;
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
  return {
    t,
    provider,
    get,
    async signIn(account) {
      provider.next = account;
      const page = await t.app.inject({ method: 'GET', url: '/login' });
      const started = await t.app.inject({
        method: 'POST',
        url: '/login',
        headers: { ...FORM, cookie: cookieOf(page) },
        payload: new URLSearchParams({ _csrf: csrfOf(page.body) }).toString(),
      });
      expect(started.statusCode).toBe(303);
      const cookie = cookieOf(started, cookieOf(page));
      const back = await t.app.inject({
        method: 'GET',
        url: `/login/callback${(await followToCallback(String(started.headers.location), redirectUri)).search}`,
        headers: { cookie },
      });
      expect(back.statusCode).toBe(303);
      return cookieOf(back, cookie);
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
