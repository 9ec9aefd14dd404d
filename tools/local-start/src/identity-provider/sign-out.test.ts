import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBookOf } from './accounts.js';
import { DASHBOARD_CLIENT_ID, type LocalIdentityProvider, startLocalIdentityProvider } from './provider.js';

// The local identity provider's side of the dashboard's sign-out (docs/decisions.md#dashboard-sign-in): its
// end-session endpoint in the discovery document, the dashboard's signed-out page registered as the client's
// post-logout redirect URI, and a confirmation page that is a plain form (no script) in the dashboard's language.

const DASHBOARD = 'http://localhost:4999';
const SIGNED_OUT = `${DASHBOARD}/login?notice=signed_out`;

let idp: LocalIdentityProvider;
/** The last one-time code the provider sent. */
let lastCode = '';

beforeAll(async () => {
  idp = await startLocalIdentityProvider({
    host: '127.0.0.1',
    port: 0,
    redirectUri: `${DASHBOARD}/login/callback`,
    audience: 'main-api-test',
    accounts: accountBookOf(undefined, []),
    sendCode: async (message) => {
      lastCode = /\b(\d{6})\b/.exec(message.text)?.[1] ?? '';
    },
  });
});
afterAll(async () => {
  await idp?.close();
});

/** A browser's cookies at the provider, kept across requests. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = { ...(init.headers as Record<string, string>), ...(cookie === '' ? {} : { cookie }) };
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
}

type Browser = ReturnType<typeof browser>;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Signs in at the provider as a new account, through its email and code pages, until it sends back to the dashboard. */
async function signInAt(go: Browser, email: string) {
  const query = new URLSearchParams({
    client_id: DASHBOARD_CLIENT_ID,
    response_type: 'code',
    redirect_uri: `${DASHBOARD}/login/callback`,
    scope: 'openid email profile',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'state-1',
    nonce: 'nonce-1',
  });
  let url = `${idp.issuer}/auth?${query}`;
  for (let step = 0; step < 10 && !url.startsWith(DASHBOARD); step += 1) {
    let response = await go(url);
    const path = new URL(url).pathname;
    if (response.status === 200 && /^\/interaction\/[^/]+$/.test(path)) {
      await go(`${url}/email`, { method: 'POST', headers: FORM, body: new URLSearchParams({ email }).toString() });
      const body = new URLSearchParams({ code: lastCode, givenName: 'Zawadi', familyName: 'Achieng' });
      response = await go(`${url}/code`, { method: 'POST', headers: FORM, body: body.toString() });
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} at ${path}`);
    url = new URL(location, url).href;
  }
  expect(url.startsWith(`${DASHBOARD}/login/callback?code=`)).toBe(true);
}

const endSession = (query: Record<string, string>) =>
  `${idp.issuer}/session/end?${new URLSearchParams({ client_id: DASHBOARD_CLIENT_ID, ...query })}`;

describe("the local identity provider's sign-out", () => {
  it('announces its end-session endpoint', async () => {
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as {
      end_session_endpoint?: string;
    };
    expect(discovery.end_session_endpoint).toBe(`${idp.issuer}/session/end`);
  });

  it('asks with a form that works without script, in the language asked for, then sends back to the dashboard', async () => {
    const go = browser();
    await signInAt(go, 'zawadi@example.com');
    const shown = await go(endSession({ post_logout_redirect_uri: SIGNED_OUT, ui_locales: 'sw' }));
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain('<html lang="sw"');
    expect(page).toContain('<h1>Utoke kwa mtoa utambulisho wa ndani?</h1>');
    expect(page).not.toContain('<script');
    expect(page).toMatch(/<button type="submit" name="logout" value="yes">Toka<\/button>/);
    expect(shown.headers.get('content-security-policy')).toContain(`form-action 'self' ${DASHBOARD}`);
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(new URL(action).origin).toBe(idp.issuer);
    const confirmed = await go(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(SIGNED_OUT);
    // Its session is over: the next sign-in asks for the address again.
    const again = await go(
      `${idp.issuer}/auth?${new URLSearchParams({
        client_id: DASHBOARD_CLIENT_ID,
        response_type: 'code',
        redirect_uri: `${DASHBOARD}/login/callback`,
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
    );
    expect(again.headers.get('location')).toMatch(/\/interaction\//);
  });

  it('speaks English unless the dashboard asks otherwise', async () => {
    const go = browser();
    await signInAt(go, 'baraka@example.com');
    const page = await (await go(endSession({ post_logout_redirect_uri: SIGNED_OUT }))).text();
    expect(page).toContain('<html lang="en"');
    expect(page).toContain('Sign out of the local identity provider?');
  });

  it('refuses to send the browser anywhere but the registered signed-out page', async () => {
    const refused = await browser()(endSession({ post_logout_redirect_uri: 'https://elsewhere.example/' }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain('elsewhere.example');
  });
});
