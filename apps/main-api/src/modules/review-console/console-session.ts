import { hkdfSync } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CONSOLE_SESSION_MS, type ConsoleSessionStore } from '../console-sessions/index.js';

// The console's sign-in: an access token from the identity provider, posted once, exchanged for a session kept on
// the server (../console-sessions). The browser holds the session's random secret in an encrypted, authenticated
// HttpOnly cookie (@fastify/secure-session), beside the CSRF secret; nothing else, no user id and no token. The
// reviewer role is asked again on every request (docs/decisions.md#review-console, #console-sessions).

declare module '@fastify/secure-session' {
  interface SessionData {
    /** The secret of the signed-in console session; the server keeps only its hash. */
    consoleSession: string;
    /** The CSRF secret of @fastify/csrf-protection. */
    _csrf: string;
  }
}

/**
 * The 32-byte key the session cookie is sealed with, derived from the reviewers' secret (the document links' key:
 * REVIEW_LINK_SECRET, or derived from the document key), so a deployment needs no other secret and every instance
 * opens every cookie; HKDF with its own label keeps the two keys independent.
 */
export function sessionKeyFrom(secret: Buffer | string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'review-console', 'session cookie', 32));
}

/**
 * The cookie's name and attributes: `__Host-` with Secure when the console is served over https (the browser then
 * refuses it from any other host or path), SameSite=Strict so no other site's page can post with it. It may outlive
 * the session on the server: the server decides.
 */
export function cookieSettings(publicUrl: string) {
  const secure = publicUrl.startsWith('https://');
  return {
    cookieName: secure ? '__Host-review_session' : 'review_session',
    cookie: {
      path: '/',
      httpOnly: true as const,
      secure,
      sameSite: 'strict' as const,
      maxAge: CONSOLE_SESSION_MS / 1000,
    },
  };
}

/** The user id of the session's reviewer, or null when nobody is signed in or the session has ended. */
export async function signedInReviewer(
  request: FastifyRequest,
  sessions: ConsoleSessionStore,
  now: Date,
): Promise<string | null> {
  const secret = request.session.get('consoleSession');
  return typeof secret === 'string' ? sessions.userOf(secret, now) : null;
}

/**
 * Opens a console session for the token's user and puts its secret in the cookie, ending the one the cookie held.
 * False when the token is too close to its expiry to open one.
 */
export async function signIn(
  request: FastifyRequest,
  sessions: ConsoleSessionStore,
  user: { id: string; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  const opened = await sessions.open({ userId: user.id, tokenExpiresAt: user.expiresAt, now });
  if (opened === null) return false;
  const previous = request.session.get('consoleSession');
  if (typeof previous === 'string') await sessions.end(previous);
  // A new CSRF secret with the new identity: a token taken before sign-in is worth nothing after it.
  request.session.set('_csrf', undefined);
  request.session.set('consoleSession', opened.secret);
  return true;
}

/** Ends the cookie's session on the server, and asks the browser to drop the cookie. */
export async function signOut(request: FastifyRequest, sessions: ConsoleSessionStore): Promise<void> {
  const secret = request.session.get('consoleSession');
  if (typeof secret === 'string') await sessions.end(secret);
  request.session.delete();
}
