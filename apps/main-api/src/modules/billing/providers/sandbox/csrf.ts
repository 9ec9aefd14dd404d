import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE = 'sandbox_checkout_csrf';
export const CSRF_FIELD = 'csrf';

/**
 * Double-submit CSRF protection for the sandbox checkout form: the page sets a random nonce in a SameSite
 * cookie and puts HMAC(secret, nonce + reference) in the form; a submission must carry both, matching. A
 * page on another site can neither read the cookie nor compute the form value.
 */
export function createCsrfGuard(secret: Buffer = randomBytes(32)) {
  const tokenFor = (nonce: string, reference: string) =>
    createHmac('sha256', secret).update(`${nonce}:${reference}`).digest('base64url');

  return {
    issue(reference: string): { nonce: string; token: string } {
      const nonce = randomBytes(24).toString('base64url');
      return { nonce, token: tokenFor(nonce, reference) };
    },
    verify(reference: string, nonce: string | undefined, token: unknown): boolean {
      if (nonce === undefined || nonce === '' || typeof token !== 'string') return false;
      const expected = Buffer.from(tokenFor(nonce, reference));
      const received = Buffer.from(token);
      return expected.length === received.length && timingSafeEqual(expected, received);
    },
  };
}

/** The Set-Cookie value carrying the nonce: for the checkout's path only, an hour, never sent cross-site. */
export function csrfCookie(nonce: string, options: { path: string; secure: boolean }): string {
  const secure = options.secure ? '; Secure' : '';
  return `${CSRF_COOKIE}=${nonce}; Path=${options.path}; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`;
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
