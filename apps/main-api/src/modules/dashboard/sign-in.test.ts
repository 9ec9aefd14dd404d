import { dashboardSessions, users } from '@platform/db/schema';
import { text } from '@platform/templates';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '../../../test/billing-fixtures.js';
import { cookieOf, csrfOf } from '../../../test/dashboard-harness.js';
import {
  createTestApp,
  insertOrganization,
  insertUser,
  TEST_AUDIENCE,
  TEST_SECRET,
  type TestApp,
} from '../../../test/helpers.js';
import {
  confirmSignOut,
  followToCallback,
  type ProviderCookies,
  startTestProvider,
  type TestProvider,
} from '../../../test/oidc-test-provider.js';
import { signAccessToken } from '../../auth/tokens.js';

// The dashboard's sign-in against a real OpenID Provider (oidc-provider on port 0): the code flow with PKCE, state and
// nonce checked, CSRF on every form, sign-out, sessions that end, forged cookies, a first sign-in without a name
// (docs/decisions.md#dashboard-sign-in).

const PUBLIC_URL = 'http://main-api.test';
const REDIRECT_URI = `${PUBLIC_URL}/login/callback`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TOKEN_TTL_SECONDS = 600;

let provider: TestProvider;
let t: TestApp;
let clockOffsetMs = 0;
/** Everything the app logged, at info and above. */
let logLines: Array<Record<string, unknown>>;

beforeAll(async () => {
  const captured = capturingLogger('info');
  logLines = captured.lines;
  provider = await startTestProvider({
    redirectUri: REDIRECT_URI,
    audience: TEST_AUDIENCE,
    ttlSeconds: TOKEN_TTL_SECONDS,
  });
  t = await createTestApp({
    env: {
      PUBLIC_URL,
      AUTH_ISSUER: provider.issuer,
      AUTH_JWKS_URL: provider.jwksUrl,
      DASHBOARD_OIDC_ISSUER: provider.issuer,
      DASHBOARD_OIDC_CLIENT_ID: 'dashboard',
      DASHBOARD_OIDC_SCOPES: 'openid email profile api',
    },
    deps: { now: () => new Date(Date.now() + clockOffsetMs), logger: captured.logger },
  });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});
beforeEach(() => {
  clockOffsetMs = 0;
  provider.tamperNonce = false;
});

/** The sign-in page, its form posted: the cookie holding the sign-in under way and the provider's URL. */
async function startSignIn() {
  const page = await t.app.inject({ method: 'GET', url: '/login' });
  expect(page.statusCode).toBe(200);
  const started = await t.app.inject({
    method: 'POST',
    url: '/login',
    headers: { ...FORM, cookie: cookieOf(page) },
    payload: new URLSearchParams({ _csrf: csrfOf(page.body) }).toString(),
  });
  expect(started.statusCode).toBe(303);
  return {
    cookie: cookieOf(started, cookieOf(page)),
    authorizationUrl: String(started.headers.location),
    setCookie: started.headers['set-cookie'],
  };
}

const callback = (url: URL, cookie: string) =>
  t.app.inject({ method: 'GET', url: `/login/callback${url.search}`, headers: { cookie } });

/** A whole sign-in (with the browser's cookies at the provider, when given); the signed-in cookie and Home's form token. */
async function signIn(jar?: ProviderCookies) {
  const { cookie, authorizationUrl } = await startSignIn();
  const back = await callback(await followToCallback(authorizationUrl, REDIRECT_URI, jar), cookie);
  expect(back.statusCode).toBe(303);
  expect(back.headers.location).toBe('/dashboard');
  const signedIn = cookieOf(back, cookie);
  const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: signedIn } });
  expect(home.statusCode).toBe(200);
  return { cookie: cookieOf(home, signedIn), csrf: csrfOf(home.body), home };
}

const sessionRows = () => t.db.select().from(dashboardSessions);

const signOut = (cookie: string, csrf: string, app = t.app) =>
  app.inject({
    method: 'POST',
    url: '/logout',
    headers: { ...FORM, cookie },
    payload: new URLSearchParams({ _csrf: csrf }).toString(),
  });

describe('signing in to the dashboard', () => {
  it('sends GET / to the dashboard, and the dashboard to sign-in without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers.location).toBe('/dashboard');
    const home = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/login');
  });

  it('signs in with the code flow and PKCE, creates the profile from the tokens, and shows Home', async () => {
    provider.next = { sub: 'user_amina', email: 'amina@example.com', givenName: 'Amina', familyName: 'Otieno' };
    const { cookie, authorizationUrl, setCookie } = await startSignIn();
    const asked = new URL(authorizationUrl);
    expect(asked.origin).toBe(provider.issuer);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.searchParams.get('state')).toBeTruthy();
    expect(asked.searchParams.get('nonce')).toBeTruthy();
    expect(asked.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(String([setCookie].flat()[0])).toMatch(/HttpOnly/);
    expect(String([setCookie].flat()[0])).toMatch(/Secure/);
    expect(String([setCookie].flat()[0])).toMatch(/SameSite=Lax/);

    const back = await callback(await followToCallback(authorizationUrl, REDIRECT_URI), cookie);
    expect(back.statusCode).toBe(303);
    const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: cookieOf(back) } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Welcome, Amina Otieno');
    expect(home.body).toContain('You do not belong to any organization yet');
    expect(home.body).toContain('href="#main"');

    const [user] = await t.db.select().from(users).where(eq(users.id, 'user_amina'));
    expect(user).toMatchObject({ email: 'amina@example.com', firstName: 'Amina', lastName: 'Otieno' });
    // Only the hash of the cookie's secret is kept, and the session ends with the tokens.
    const [row] = (await sessionRows()).filter((each) => each.userId === 'user_amina');
    expect(row?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(cookieOf(back)).not.toContain(row?.secretHash ?? 'none');
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + TOKEN_TTL_SECONDS * 1000 + 5_000);
  });

  it('finishes a first sign-in without a name, and sends every page to the profile form until the profile is made', async () => {
    provider.next = { sub: 'user_neema', email: 'neema@example.com' };
    const { cookie, authorizationUrl } = await startSignIn();
    const back = await callback(await followToCallback(authorizationUrl, REDIRECT_URI), cookie);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/dashboard');
    const signedIn = cookieOf(back, cookie);
    expect(await t.db.select().from(users).where(eq(users.id, 'user_neema'))).toEqual([]);
    const sessionsOfNeema = async () => (await sessionRows()).filter((row) => row.userId === 'user_neema');
    // The session's row needs the profile's: the sign-in waits in the sealed cookie until the form makes it.
    expect(await sessionsOfNeema()).toEqual([]);

    const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: signedIn } });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/dashboard/profile/new');
    const form = await t.app.inject({ method: 'GET', url: '/dashboard/profile/new', headers: { cookie: signedIn } });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Complete your profile');
    expect(form.body).toContain('neema@example.com');
    const made = await t.app.inject({
      method: 'POST',
      url: '/dashboard/profile/new',
      headers: { ...FORM, cookie: cookieOf(form, signedIn) },
      payload: new URLSearchParams({ _csrf: csrfOf(form.body), firstName: 'Neema', lastName: 'Wairimu' }).toString(),
    });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/dashboard');
    const [user] = await t.db.select().from(users).where(eq(users.id, 'user_neema'));
    expect(user).toMatchObject({ email: 'neema@example.com', firstName: 'Neema', lastName: 'Wairimu' });
    expect(await sessionsOfNeema()).toHaveLength(1);
    const after = await t.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { cookie: cookieOf(made, signedIn) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Welcome, Neema Wairimu');
  });

  it('refuses a first sign-in without a name when another profile has its address, and opens no session', async () => {
    await insertUser(t.db, { id: 'user_first_owner', email: 'shared@example.com' });
    const before = (await sessionRows()).length;
    provider.next = { sub: 'user_second_comer', email: 'Shared@Example.com' };
    const { cookie, authorizationUrl } = await startSignIn();
    const back = await callback(await followToCallback(authorizationUrl, REDIRECT_URI), cookie);
    expect(back.statusCode).toBe(400);
    expect(back.body).toContain('Another profile already uses the email address of this account');
    expect(await sessionRows()).toHaveLength(before);
  });

  it('lists the organizations of a user, in Kiswahili when asked', async () => {
    provider.next = { sub: 'user_baraka', email: 'baraka@example.com', givenName: 'Baraka', familyName: 'Mwangi' };
    const { cookie } = await signIn();
    await insertOrganization(t.db, { name: 'Duka <Pay>', members: [{ userId: 'user_baraka', role: 'developer' }] });
    const home = await t.app.inject({ method: 'GET', url: '/dashboard?lang=sw', headers: { cookie } });
    expect(home.body).toContain('<html lang="sw">');
    expect(home.body).toContain('Duka &lt;Pay&gt;');
    expect(home.body).toContain('Jukumu lako: Msanidi');
  });

  it('gives the same user id as the API: the provider’s access token and an HS256 token both open /v1/accounts/me', async () => {
    provider.next = { sub: 'user_amina', email: 'amina@example.com', givenName: 'Amina', familyName: 'Otieno' };
    await signIn();
    const hs256 = await signAccessToken({
      secret: TEST_SECRET,
      issuer: provider.issuer,
      audience: TEST_AUDIENCE,
      subject: 'user_amina',
    });
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: { authorization: `Bearer ${hs256}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.email).toBe('amina@example.com');
  });

  it('refuses a callback whose state is not the one sent, and opens no session', async () => {
    const before = (await sessionRows()).length;
    const { cookie, authorizationUrl } = await startSignIn();
    const returned = await followToCallback(authorizationUrl, REDIRECT_URI);
    returned.searchParams.set('state', 'not-the-state');
    const back = await callback(returned, cookie);
    expect(back.statusCode).toBe(400);
    expect(back.body).toContain('Sign-in did not complete');
    expect(await sessionRows()).toHaveLength(before);
  });

  it('refuses an ID token signed for another nonce', async () => {
    const before = (await sessionRows()).length;
    provider.tamperNonce = true;
    const { cookie, authorizationUrl } = await startSignIn();
    const back = await callback(await followToCallback(authorizationUrl, REDIRECT_URI), cookie);
    expect(back.statusCode).toBe(400);
    expect(await sessionRows()).toHaveLength(before);
  });

  it('refuses a callback without the sign-in it answers (another browser, or the same one twice)', async () => {
    const { cookie, authorizationUrl } = await startSignIn();
    const returned = await followToCallback(authorizationUrl, REDIRECT_URI);
    expect((await callback(returned, '')).statusCode).toBe(400);
    const first = await callback(returned, cookie);
    expect(first.statusCode).toBe(303);
    expect((await callback(returned, cookieOf(first))).statusCode).toBe(400);
  });

  it('refuses forms without their CSRF token: sign-in and sign-out', async () => {
    const { cookie } = await signIn();
    const noToken = await t.app.inject({ method: 'POST', url: '/login', headers: { ...FORM, cookie }, payload: '' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('This form has expired');
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { ...FORM, cookie },
      payload: '_csrf=forged',
    });
    expect(signOut.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } })).statusCode).toBe(200);
  });

  it("ends the session at sign-out, then sends to the provider's end-session endpoint with the ID token", async () => {
    provider.next = { sub: 'user_wambui', email: 'wambui@example.com', givenName: 'Wambui', familyName: 'Njeri' };
    const { cookie, csrf } = await signIn();
    const before = (await sessionRows()).length;
    const [row] = (await sessionRows()).filter((each) => each.userId === 'user_wambui');
    const idToken = row?.idToken ?? '';
    // The session keeps the sign-in's ID token: the provider's, for the dashboard's client, of this user.
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ iss: provider.issuer, aud: 'dashboard', sub: 'user_wambui' });
    const out = await signOut(cookie, csrf);
    expect(out.statusCode).toBe(303);
    const to = new URL(String(out.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${PUBLIC_URL}/login?notice=signed_out`,
      client_id: 'dashboard',
      ui_locales: 'en',
    });
    expect(await sessionRows()).toHaveLength(before - 1);
    const again = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
    expect(again.statusCode).toBe(303);
    expect(String(again.headers.location)).toMatch(/^\/login/);
    // Nothing of ours carries the token: no log line, no URL of this service.
    expect(JSON.stringify(logLines)).not.toContain(idToken);
    expect(String(out.headers.location).startsWith(PUBLIC_URL)).toBe(false);
  });

  it("ends the provider's session too, through its confirmation page without script, and comes back signed out", async () => {
    provider.next = { sub: 'user_jabali', email: 'jabali@example.com', givenName: 'Jabali', familyName: 'Mwangi' };
    const jar: ProviderCookies = new Map();
    const { cookie } = await signIn(jar);
    // While the provider's session lasts, a new sign-in comes straight back without asking who it is.
    const whileSignedIn: string[] = [];
    await followToCallback((await startSignIn()).authorizationUrl, REDIRECT_URI, jar, whileSignedIn);
    expect(whileSignedIn.some((url) => url.includes('/interaction/'))).toBe(false);

    const sw = await t.app.inject({ method: 'GET', url: '/dashboard?lang=sw', headers: { cookie } });
    const out = await signOut(cookieOf(sw, cookie), csrfOf(sw.body));
    expect(out.statusCode).toBe(303);
    expect(new URL(String(out.headers.location)).searchParams.get('ui_locales')).toBe('sw');
    const confirmed = await confirmSignOut(String(out.headers.location), jar);
    expect(confirmed.page).toContain('<form');
    expect(confirmed.page).not.toContain('<script');
    expect(confirmed.location).toBe(`${PUBLIC_URL}/login?notice=signed_out`);
    // Back at the dashboard: signed out, in the language chosen before.
    const back = await t.app.inject({
      method: 'GET',
      url: '/login?notice=signed_out',
      headers: { cookie: cookieOf(out, cookie) },
    });
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('<html lang="sw"');
    expect(back.body).toContain(text('sw', 'dashboard.notice.signed_out'));
    expect(
      (await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: cookieOf(out) } })).statusCode,
    ).toBe(303);
    // The provider's session is over: the next sign-in asks who it is again.
    const afterSignOut: string[] = [];
    await followToCallback((await startSignIn()).authorizationUrl, REDIRECT_URI, jar, afterSignOut);
    expect(afterSignOut.some((url) => url.includes('/interaction/'))).toBe(true);
  });

  it("lets every signed-in page's forms go to the provider (the sign-out form's redirect)", async () => {
    const { home } = await signIn();
    expect(String(home.headers['content-security-policy'])).toContain(`form-action 'self' ${provider.issuer};`);
    const login = await t.app.inject({ method: 'GET', url: '/login' });
    expect(String(login.headers['content-security-policy'])).toContain(`form-action 'self' ${provider.issuer};`);
  });

  it('ends the session when the tokens it came from expire', async () => {
    const { cookie } = await signIn();
    clockOffsetMs = TOKEN_TTL_SECONDS * 1000 + 1_000;
    const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/login?notice=expired');
  });

  it('opens nothing with a forged or foreign cookie', async () => {
    for (const cookie of ['__Host-dashboard=forged', `__Host-dashboard=${'A'.repeat(120)}`]) {
      const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
      expect(home.statusCode).toBe(303);
      expect(home.headers.location).toBe('/login');
    }
  });
});

describe('signing out with a provider that has no end-session endpoint', () => {
  it('ends the session and comes back to the signed-out page, as before', async () => {
    const plain = await startTestProvider({ redirectUri: REDIRECT_URI, audience: TEST_AUDIENCE, endSession: false });
    const app = await createTestApp({
      env: {
        PUBLIC_URL,
        AUTH_ISSUER: plain.issuer,
        AUTH_JWKS_URL: plain.jwksUrl,
        DASHBOARD_OIDC_ISSUER: plain.issuer,
        DASHBOARD_OIDC_CLIENT_ID: 'dashboard',
        DASHBOARD_OIDC_SCOPES: 'openid email profile api',
      },
    });
    try {
      const page = await app.app.inject({ method: 'GET', url: '/login?lang=sw' });
      const started = await app.app.inject({
        method: 'POST',
        url: '/login',
        headers: { ...FORM, cookie: cookieOf(page) },
        payload: new URLSearchParams({ _csrf: csrfOf(page.body) }).toString(),
      });
      const cookie = cookieOf(started, cookieOf(page));
      const returned = await followToCallback(String(started.headers.location), REDIRECT_URI);
      const back = await app.app.inject({
        method: 'GET',
        url: `/login/callback${returned.search}`,
        headers: { cookie },
      });
      const home = await app.app.inject({
        method: 'GET',
        url: '/dashboard',
        headers: { cookie: cookieOf(back, cookie) },
      });
      expect(home.statusCode).toBe(200);
      const out = await signOut(cookieOf(home, cookieOf(back, cookie)), csrfOf(home.body), app.app);
      expect(out.statusCode).toBe(303);
      expect(out.headers.location).toBe('/login?notice=signed_out&lang=sw');
      expect(await app.db.select().from(dashboardSessions)).toHaveLength(0);
    } finally {
      await app.close();
      await plain.close();
    }
  });
});

describe('the dashboard without an identity provider', () => {
  it('answers every route with a page that says it is off', async () => {
    const off = await createTestApp();
    try {
      for (const url of ['/dashboard', '/login', '/login/callback?code=x&state=y']) {
        const page = await off.app.inject({ method: 'GET', url });
        expect(page.statusCode).toBe(404);
        expect(page.body).toContain('The dashboard is not set up on this server');
      }
    } finally {
      await off.close();
    }
  });
});
