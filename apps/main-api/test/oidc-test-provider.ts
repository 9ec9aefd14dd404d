import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID Provider (oidc-provider) on port 0 for the dashboard's sign-in tests: one public client with PKCE,
// JWT access tokens for the API's audience with the `email` claim, and an interaction that signs in `next` at once
// (the tests choose who signs in). `tamperNonce` makes it sign another nonce than the one asked for, as a provider
// under attack or a replayed answer would.

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

export async function startTestProvider(options: { redirectUri: string; audience: string; ttlSeconds?: number }) {
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

/** Follows the provider's redirects as a browser does, with its cookies, until it sends back to the dashboard. */
export async function followToCallback(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let step = 0; step < 10; step += 1) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie === '' ? {} : { cookie } });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} without a redirect`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}
