import * as client from 'openid-client';
import type { DashboardOidcConfig } from './config.js';

// The dashboard's side of OpenID Connect (docs/decisions.md#dashboard-sign-in), through openid-client: the
// authorization code flow with PKCE (S256), `state` and `nonce`, the ID token checked by the library (signature,
// issuer, audience, expiry, nonce). What the browser must bring back (state, nonce, the PKCE verifier) travels in the
// sealed cookie between the two legs, never in a URL of ours.

/** What is kept, sealed in the cookie, between sending the browser to the provider and its return. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Sign-ins older than this are refused (the cookie may be replayed): epoch milliseconds. */
  startedAt: number;
}

/** What a completed sign-in gives: the access token (the API's identity) and the ID token's claims. */
export interface CompletedSignIn {
  accessToken: string;
  idClaims: { sub: string; exp: number; email?: unknown; given_name?: unknown; family_name?: unknown; name?: unknown };
}

export interface OidcSignIn {
  /** The provider's authorization URL to send the browser to, and what to keep until it comes back. */
  start(now: Date): Promise<{ url: URL; pending: PendingSignIn }>;
  /** Exchanges the code the callback brought for tokens, checking state, nonce and the PKCE verifier; throws otherwise. */
  finish(callbackQuery: string, pending: PendingSignIn): Promise<CompletedSignIn>;
}

export function oidcSignInOf(config: DashboardOidcConfig, redirectUri: string): OidcSignIn {
  let discovered: Promise<client.Configuration> | undefined;
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
      return { accessToken: tokens.access_token, idClaims: claims as CompletedSignIn['idClaims'] };
    },
  };
}
