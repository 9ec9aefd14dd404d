import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Locale, locales, text } from '@platform/templates';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { type AccountBook, oneTimeCodes } from './accounts.js';
import { codePage, emailPage, expiredPage, signedOutPage, signOutPage } from './pages.js';

// The local start's identity provider (docs/decisions.md#dashboard-sign-in), never deployed: oidc-provider (a
// certified OpenID Provider) with one client, the dashboard (public, code flow with PKCE), sign-up and sign-in by email
// with a one-time code written to the local outbox. Its access tokens are JWTs (RS256) for the API's audience with
// the `email` claim, so main-api accepts them as bearer tokens through AUTH_JWKS_URL. Sign-out from the dashboard ends
// its session here too (RP-initiated logout): the dashboard's signed-out page is the client's registered
// post-logout redirect URI, and the confirmation is a plain form in the dashboard's language.

export interface LocalIdentityProviderOptions {
  host: string;
  /** 0 for any free port. */
  port: number;
  /** The dashboard's redirect URI (main-api's /login/callback). */
  redirectUri: string;
  /** The API's AUTH_AUDIENCE: the access tokens' `aud`. */
  audience: string;
  accounts: AccountBook;
  /** Sends the code: to the local outbox. */
  sendCode(message: { to: string; subject: string; text: string }): Promise<void>;
  /** Keeps the signing key between runs (a JSON file); unset: a new key per start. */
  keyFile?: string;
  /** Access and ID token lifetime in seconds; 1 hour by default. */
  tokenTtlSeconds?: number;
}

export interface LocalIdentityProvider {
  issuer: string;
  jwksUrl: string;
  close(): Promise<void>;
}

export const DASHBOARD_CLIENT_ID = 'dashboard';
/** The dashboard's signed-out page, beside its redirect URI: where the provider sends the browser after a sign-out. */
const signedOutUri = (redirectUri: string) => new URL('/login?notice=signed_out', redirectUri).href;
/** oidc-provider's sign-out form: its action and its one-time `xsrf`, rendered again on the page of ours. */
const LOGOUT_FORM = /action="([^"]+)"[^>]*>\s*<input type="hidden" name="xsrf" value="([^"]+)"/;
/** The scope of the API's access tokens, asked for by the dashboard beside openid, email and profile. */
export const API_SCOPE = 'api';
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The pages' policy: the code form's answer redirects to the dashboard, which form-action must allow. */
const pagePolicy = (dashboardOrigin: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${dashboardOrigin}; frame-ancestors 'none'; base-uri 'none'`;

async function signingKey(file: string | undefined): Promise<JWK> {
  if (file !== undefined && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as JWK;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };
  if (file !== undefined) writeFileSync(file, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 16 * 1024) throw new Error('Form too large');
  }
  return new URLSearchParams(body);
}

function writePage(response: ServerResponse, policy: string, html: string, status: number) {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': policy,
    'cache-control': 'no-store',
  });
  response.end(html);
}

export async function startLocalIdentityProvider(
  options: LocalIdentityProviderOptions,
): Promise<LocalIdentityProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const resource = `${new URL(options.redirectUri).origin}/`;
  const policy = pagePolicy(new URL(options.redirectUri).origin);
  const send = (response: ServerResponse, html: string, status = 200) => writePage(response, policy, html, status);
  const ttl = options.tokenTtlSeconds ?? 3600;
  const { accounts } = options;

  const configuration: Configuration = {
    clients: [
      {
        client_id: DASHBOARD_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [signedOutUri(options.redirectUri)],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [await signingKey(options.keyFile)] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    scopes: ['openid', 'email', 'profile', API_SCOPE],
    pkce: { required: () => true },
    ttl: { AccessToken: ttl, IdToken: ttl, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
    async findAccount(_ctx, sub) {
      const account = accounts.bySub(sub);
      if (account === undefined) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: true,
          ...(account.givenName === undefined ? {} : { given_name: account.givenName }),
          ...(account.familyName === undefined ? {} : { family_name: account.familyName }),
          ...(account.givenName === undefined
            ? {}
            : { name: `${account.givenName} ${account.familyName ?? ''}`.trim() }),
        }),
      };
    },
    // The API reads the address from the access token, as from any provider's (docs/decisions.md#profile-creation).
    extraTokenClaims(_ctx, token) {
      const email =
        'accountId' in token && typeof token.accountId === 'string'
          ? accounts.bySub(token.accountId)?.email
          : undefined;
      return email === undefined ? undefined : { email };
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const [, action, xsrf] = LOGOUT_FORM.exec(form) ?? [];
          if (action === undefined || xsrf === undefined) throw new Error('oidc-provider changed its logout form');
          sendFromProvider(ctx, signOutPage({ locale: localeOf(ctx), action, xsrf }));
        },
        async postLogoutSuccessSource(ctx) {
          sendFromProvider(ctx, signedOutPage(localeOf(ctx)));
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: API_SCOPE,
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: ttl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // The dashboard is the platform's own client: no consent screen, the grant made at once.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (session?.accountId === undefined || client === undefined) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing !== undefined) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(`openid email profile ${API_SCOPE}`);
      grant.addResourceScope(resource, API_SCOPE);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError(ctx) {
      ctx.type = 'html';
      ctx.body = expiredPage();
    },
  };
  /** A page of ours answered through oidc-provider, under the same headers as the interaction pages. */
  function sendFromProvider(ctx: KoaContextWithOIDC, html: string) {
    ctx.set('content-security-policy', policy);
    ctx.set('cache-control', 'no-store');
    ctx.type = 'html';
    ctx.body = html;
  }
  const provider = new Provider(issuer, configuration);
  const codes = oneTimeCodes();
  const oidcHandler = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse, path: string[]) {
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(request, response);
    } catch {
      return send(response, expiredPage(), 400);
    }
    const { uid } = details;
    if (path[1] !== uid) return send(response, expiredPage(), 400);
    if (request.method === 'GET' && path.length === 2) return send(response, emailPage(uid));
    if (request.method !== 'POST') return send(response, expiredPage(), 405);
    const form = await formOf(request);
    if (path[2] === 'email') {
      const email = (form.get('email') ?? '').trim();
      if (!EMAIL_SHAPE.test(email) || email.length > 320)
        return send(response, emailPage(uid, text('en', 'localIdp.email.invalid')), 400);
      const code = codes.issue(uid, email);
      await options.sendCode({
        to: email,
        subject: text('en', 'localIdp.mail.subject', { code }),
        text: text('en', 'localIdp.mail.body', { code }),
      });
      return send(response, codePage({ uid, email, newAccount: accounts.byEmail(email) === undefined }));
    }
    if (path[2] === 'code') {
      const email = codes.emailOf(uid);
      if (email === undefined) return send(response, emailPage(uid), 400);
      const newAccount = accounts.byEmail(email) === undefined;
      const givenName = (form.get('givenName') ?? '').trim();
      const familyName = (form.get('familyName') ?? '').trim();
      const again = (message: string) => send(response, codePage({ uid, email, newAccount, error: message }), 400);
      if (newAccount && (givenName === '' || familyName === '')) return again(text('en', 'localIdp.code.noName'));
      if (codes.check(uid, (form.get('code') ?? '').trim()) === undefined)
        return again(text('en', 'localIdp.code.wrong'));
      const account = accounts.byEmail(email) ?? accounts.create({ email, givenName, familyName });
      return provider.interactionFinished(
        request,
        response,
        { login: { accountId: account.sub } },
        { mergeWithLastSubmission: false },
      );
    }
    return send(response, expiredPage(), 404);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', issuer).pathname.split('/').filter((part) => part !== '');
    if (path[0] === 'interaction') {
      interaction(request, response, path).catch(() => send(response, expiredPage(), 500));
      return;
    }
    oidcHandler(request, response);
  });

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The sign-out page's language: the dashboard's, sent as `ui_locales`; else English. */
function localeOf(ctx: KoaContextWithOIDC): Locale {
  const asked = String(ctx.oidc.params?.['ui_locales'] ?? '').split(' ');
  return locales.find((locale) => asked.includes(locale)) ?? 'en';
}
