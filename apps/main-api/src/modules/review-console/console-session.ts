import { hkdfSync } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

// The console's sign-in: an access token from the identity provider, posted once, exchanged for a session kept
// in an encrypted, authenticated HttpOnly cookie (@fastify/secure-session). The cookie holds who signed in and when;
// the reviewer role is asked again on every request, so taking the role away ends the session at once
// (docs/decisions.md#review-console).

/** How long a console session lasts after sign-in. */
const SESSION_HOURS = 8;
const SESSION_MS = SESSION_HOURS * 60 * 60 * 1000;

declare module '@fastify/secure-session' {
  interface SessionData {
    /** The signed-in reviewer's user id. */
    reviewerId: string;
    /** When they signed in, in epoch milliseconds. */
    signedInAt: number;
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
 * refuses it from any other host or path), SameSite=Strict so no other site's page can post with it.
 */
export function cookieSettings(publicUrl: string) {
  const secure = publicUrl.startsWith('https://');
  return {
    cookieName: secure ? '__Host-review_session' : 'review_session',
    cookie: { path: '/', httpOnly: true, secure, sameSite: 'strict' as const, maxAge: SESSION_MS / 1000 },
  };
}

/** The user id of the session's reviewer, or null when nobody is signed in or the session has run out. */
export function signedInReviewer(request: FastifyRequest, now: Date): string | null {
  const reviewerId = request.session.get('reviewerId');
  const signedInAt = request.session.get('signedInAt');
  if (typeof reviewerId !== 'string' || typeof signedInAt !== 'number') return null;
  if (now.getTime() - signedInAt >= SESSION_MS || signedInAt > now.getTime()) return null;
  return reviewerId;
}

export function signIn(request: FastifyRequest, reviewerId: string, now: Date): void {
  // A new CSRF secret with the new identity: a token taken before sign-in is worth nothing after it.
  request.session.set('_csrf', undefined);
  request.session.set('reviewerId', reviewerId);
  request.session.set('signedInAt', now.getTime());
}

export function signOut(request: FastifyRequest): void {
  request.session.delete();
}
