import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID Provider (oidc-provider) on port 0 for the dashboard's sign-in tests: one public client with PKCE,
// JWT access tokens for the API's audience with the `email` claim, and an interaction that signs in `next` at once
// (the tests choose who signs in). `tamperNonce` makes it sign another nonce than the one asked for, as a provider
// under attack or a replayed answer would. RP-initiated logout is on (its end-session endpoint and oidc-provider's
// own confirmation page, a form without script) with the dashboard's signed-out page registered, unless
// `endSession: false` asks for a provider without it.

export interface TestAccount {
  sub: string;
  email: string;
  givenName?: string;
  familyName?: string;
}

export interface TestProvider {
  issuer: string;
  jwksUrl: string;
  next: TestAccount;
  tamperNonce: boolean;
  close(): Promise<void>;
}

export async function startTestProvider(options: {
  redirectUri: string;
  audience: string;
  ttlSeconds?: number;
  /** False: no end-session endpoint in the discovery document. */
  endSession?: boolean;
}) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const resource = 'https://api.test.example/';
  const ttl = options.ttlSeconds ?? 3600;
  const accounts = new Map<string, TestAccount>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'dashboard',
        token_endpoint_auth_method: 'none',
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [new URL('/login?notice=signed_out', options.redirectUri).href],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email'], profile: ['given_name', 'family_name'] },
    scopes: ['openid', 'email', 'profile', 'api'],
    ttl: { AccessToken: ttl, IdToken: ttl, Interaction: 600, Session: 3600, Grant: 3600 },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      return account === undefined
        ? undefined
        : {
            accountId: sub,
            claims: async () => ({
              sub,
              email: account.email,
              ...(account.givenName === undefined ? {} : { given_name: account.givenName }),
              ...(account.familyName === undefined ? {} : { family_name: account.familyName }),
            }),
          };
    },
    extraTokenClaims: (_ctx, token) =>
      'accountId' in token && typeof token.accountId === 'string'
        ? { email: accounts.get(token.accountId)?.email }
        : undefined,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: options.endSession ?? true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api',
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: ttl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { session, client } = ctx.oidc;
      if (session?.accountId === undefined || client === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile api');
      grant.addResourceScope(resource, 'api');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const handler = provider.callback();
  const state: TestProvider = {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    next: { sub: 'user_signin', email: 'amina@example.com', givenName: 'Amina', familyName: 'Otieno' },
    tamperNonce: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/interaction/')) {
      accounts.set(state.next.sub, state.next);
      provider
        .interactionFinished(
          request,
          response,
          { login: { accountId: state.next.sub } },
          { mergeWithLastSubmission: false },
        )
        .catch(() => response.writeHead(500).end());
      return;
    }
    if (state.tamperNonce && request.url?.startsWith('/auth?')) {
      request.url = request.url.replace(/([?&])nonce=[^&]*/, '$1nonce=another-nonce');
    }
    handler(request, response);
  });
  return state;
}

/** A browser's cookies at the provider: a new one per sign-in unless a test keeps one across requests. */
export type ProviderCookies = Map<string, string>;

/** A request to the provider as a browser makes it, with its cookies, which the answer updates; never redirected. */
async function browse(url: string, jar: ProviderCookies, init: RequestInit = {}): Promise<Response> {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const headers = { ...(init.headers as Record<string, string>), ...(cookie === '' ? {} : { cookie }) };
  const response = await fetch(url, { ...init, redirect: 'manual', headers });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const value = pair.slice(at + 1);
    // A cookie set to expire is removed, as a browser does.
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(pair.slice(0, at));
    else jar.set(pair.slice(0, at), value);
  }
  return response;
}

/**
 * Follows the provider's redirects as a browser does, with its cookies, until it sends back to the dashboard; each
 * address it passed through is added to `visited`.
 */
export async function followToCallback(
  authorizationUrl: string,
  redirectUri: string,
  jar: ProviderCookies = new Map(),
  visited: string[] = [],
): Promise<URL> {
  let url = authorizationUrl;
  for (let step = 0; step < 10; step += 1) {
    if (url.startsWith(redirectUri)) return new URL(url);
    visited.push(url);
    const response = await browse(url, jar);
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} without a redirect`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

/**
 * At the provider's end-session URL, as a browser without script: its confirmation page, its form posted with the
 * button that signs out. The page's HTML and where the provider then sends the browser.
 */
export async function confirmSignOut(
  endSessionUrl: string,
  jar: ProviderCookies,
): Promise<{ page: string; policy: string | null; location: string | null }> {
  const shown = await browse(endSessionUrl, jar);
  const page = await shown.text();
  if (shown.status !== 200) throw new Error(`the end-session page answered ${shown.status}: ${page}`);
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
  const fields = [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
    ([, name = '', value = '']) => [name, value],
  );
  const button = /<button[^>]*name="(logout)"[^>]*value="(yes)"|<button[^>]*value="(yes)"[^>]*name="(logout)"/.exec(
    page,
  );
  if (action === undefined || button === null) throw new Error('the end-session page has no sign-out form');
  const posted = await browse(new URL(action, endSessionUrl).href, jar, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([...fields, ['logout', 'yes']]).toString(),
  });
  return { page, policy: shown.headers.get('content-security-policy'), location: posted.headers.get('location') };
}
