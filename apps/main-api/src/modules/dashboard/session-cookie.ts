import { hkdfSync } from 'node:crypto';
import type { ApiKeyEnvironment } from '@platform/db';
import type { Locale } from '@platform/templates';
import type { SealedCookieSettings } from '../../shared/html-forms.js';
import { isLocalHttp } from './config.js';
import type { PendingSignIn } from './oidc.js';
import { DASHBOARD_SESSION_MS } from './service.js';

// The dashboard's cookie (docs/decisions.md#dashboard-sign-in): sealed by @fastify/secure-session (encrypted and
// authenticated), HttpOnly, Secure outside local runs, SameSite=Lax so that the identity provider's redirect back (a
// top-level navigation from its site) brings it. It holds the session's random secret, the CSRF secret, a sign-in
// under way, the page to go back to after it, a sign-in awaiting its profile, and the chosen language, organization and data (test or live); never a
// token, and a user id only for a sign-in awaiting its profile.

declare module '@fastify/secure-session' {
  interface SessionData {
    /** The secret of the signed-in dashboard session; the server keeps only its hash. */
    dashboardSession: string;
    /** State, nonce and PKCE verifier of a sign-in under way. */
    dashboardSignIn: PendingSignIn;
    /** The language chosen with the switch. */
    dashboardLocale: Locale;
    /** The organization chosen with the switcher (its id: the user's membership is checked on every page). */
    dashboardOrganization: string;
    /** Test or live data, chosen with the toggle. */
    dashboardEnvironment: ApiKeyEnvironment;
    /** The dashboard page a sign-in goes back to. */
    dashboardReturnTo: string;
    /**
     * A sign-in finished for a user without a profile (the provider gave no name): who they are, the provider's
     * address and when the sign-in ends (ms), until the "complete your profile" form makes the profile and opens the
     * session, whose row needs the user's.
     */
    dashboardNewProfile: { userId: string; email: string; expiresAt: number };
  }
}

/** The cookie's key: HKDF of DASHBOARD_SESSION_SECRET with the dashboard's own label. */
export function dashboardCookieSettings(secret: string, publicUrl: string): SealedCookieSettings {
  const secure = !isLocalHttp(publicUrl);
  return {
    key: Buffer.from(hkdfSync('sha256', secret, 'dashboard', 'session cookie', 32)),
    cookieName: secure ? '__Host-dashboard' : 'dashboard_session',
    cookie: { path: '/', httpOnly: true, secure, sameSite: 'lax', maxAge: DASHBOARD_SESSION_MS / 1000 },
  };
}
