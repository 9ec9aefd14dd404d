import { createHmac, timingSafeEqual } from 'node:crypto';

// The hosted page's forms carry an HMAC of the session id under a server secret. Another site cannot make a
// visitor's browser post an action without having read the page, and a token of one session is worthless for
// any other. The session id in the URL stays the credential; this only stops forged cross-site posts.

export function formTokenFor(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`hosted-page-form:${sessionId}`).digest('base64url');
}

export function isValidFormToken(secret: string, sessionId: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const expected = Buffer.from(formTokenFor(secret, sessionId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
