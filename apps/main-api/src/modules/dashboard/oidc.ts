import * as client from 'openid-client';
import type { DashboardOidcConfig } from './config.js';

// The dashboard's side of OpenID Connect (docs/decisions.md#dashboard-sign-in), through openid-client: the
// authorization code flow with PKCE (S256), `state` and `nonce`, the ID token checked by the library (signature,
// issuer, audience, expiry, nonce). What the browser must bring back (state, nonce, the PKCE verifier) travels in the
// sealed cookie between the two legs, never in a URL of ours. Sign-out ends the provider's session too when its
// discovery document has an `end_session_endpoint` (RP-initiated logout): the browser is sent there with the ID token
// as `id_token_hint`, the client id and where to come back.

/** What is kept, sealed in the cookie, between sending the browser to the provider and its return. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Sign-ins older than this are refused (the cookie may be replayed): epoch milliseconds. */
  startedAt: number;
}

/** What a completed sign-in gives: the access token (the API's identity), the ID token and its claims. */
export interface CompletedSignIn {
  accessToken: string;
  /** Kept with the session (never in the cookie, a URL of ours or a log) for the provider's sign-out. */
  idToken: string;
  idClaims: { sub: string; exp: number; email?: unknown; given_name?: unknown; family_name?: unknown; name?: unknown };
}

export interface OidcSignIn {
  /** The provider's authorization URL to send the browser to, and what to keep until it comes back. */
  start(now: Date): Promise<{ url: URL; pending: PendingSignIn }>;
  /** Exchanges the code the callback brought for tokens, checking state, nonce and the PKCE verifier; throws otherwise. */
  finish(callbackQuery: string, pending: PendingSignIn): Promise<CompletedSignIn>;
  /**
   * Where to send the browser so the provider ends its session too: its end-session endpoint with `id_token_hint`,
   * `post_logout_redirect_uri`, `client_id` and `ui_locales`; undefined when its discovery document has none. Throws
   * when the document cannot be read.
   */
  endSessionUrl(input: { idToken: string; postLogoutRedirectUri: string; locale: string }): Promise<URL | undefined>;
  /**
   * The origins a form's answer may send the browser to (a page's CSP `form-action`): the issuer's, for sign-in, and
   * the end-session endpoint's once the discovery document is read, for sign-out.
   */
  formOrigins(): string[];
}

export function oidcSignInOf(config: DashboardOidcConfig, redirectUri: string): OidcSignIn {
  let discovered: Promise<client.Configuration> | undefined;
  let endSessionOrigin: string | undefined;
  // Discovered once, at the first sign-in (not at start: the service starts while the provider is down); a failure
  // is not remembered, so the next sign-in asks again.
  const configuration = () => {
    discovered ??= client
      .discovery(
        config.issuer,
        config.clientId,
        config.clientSecret,
        config.clientSecret === undefined ? client.None() : client.ClientSecretPost(config.clientSecret),
        config.allowHttp ? { execute: [client.allowInsecureRequests] } : {},
      )
      .then((found) => {
        const endpoint = found.serverMetadata().end_session_endpoint;
        endSessionOrigin = endpoint === undefined ? undefined : new URL(endpoint).origin;
        return found;
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    async start(now) {
      const codeVerifier = client.randomPKCECodeVerifier();
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier,
        startedAt: now.getTime(),
      };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: config.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        ...(config.resource === undefined ? {} : { resource: config.resource }),
      });
      return { url, pending };
    },
    async finish(callbackQuery, pending) {
      const current = new URL(redirectUri);
      current.search = callbackQuery;
      const tokens = await client.authorizationCodeGrant(
        await configuration(),
        current,
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
        config.resource === undefined ? undefined : { resource: config.resource },
      );
      const claims = tokens.claims();
      if (claims === undefined) throw new Error('The provider answered no ID token');
      if (tokens.id_token === undefined) throw new Error('The provider answered no ID token');
      return {
        accessToken: tokens.access_token,
        idToken: tokens.id_token,
        idClaims: claims as CompletedSignIn['idClaims'],
      };
    },
    async endSessionUrl({ idToken, postLogoutRedirectUri, locale }) {
      const found = await configuration();
      if (found.serverMetadata().end_session_endpoint === undefined) return undefined;
      // openid-client adds `client_id`.
      return client.buildEndSessionUrl(found, {
        id_token_hint: idToken,
        post_logout_redirect_uri: postLogoutRedirectUri,
        ui_locales: locale,
      });
    },
    formOrigins() {
      const issuer = config.issuer.origin;
      return endSessionOrigin === undefined || endSessionOrigin === issuer ? [issuer] : [issuer, endSessionOrigin];
    },
  };
}
