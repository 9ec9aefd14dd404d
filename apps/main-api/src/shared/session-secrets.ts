import { createHash, randomBytes } from 'node:crypto';

// The secrets of the sessions kept on the server, the review console's and the dashboard's
// (docs/decisions.md#console-sessions, #dashboard-sign-in): the browser holds a random secret in a sealed cookie,
// the server only its SHA-256, so a copy of the table opens no session.

const SECRET_BYTES = 32;
/** 32 bytes in base64url, without padding. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new session secret, for the cookie alone. */
export const newSessionSecret = (): string => randomBytes(SECRET_BYTES).toString('base64url');

/** Whether a cookie's value can be a session secret at all (anything else is not looked up). */
export const isSessionSecret = (secret: string): boolean => SECRET_SHAPE.test(secret);

/** What the server keeps of a secret: its SHA-256 in lowercase hex. */
export const sessionSecretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** When a session opened at `now` ends: after `maxMs`, or at the token's expiry when that comes first; null if past. */
export function sessionEnd(now: Date, maxMs: number, tokenExpiresAt: Date): Date | null {
  const end = new Date(Math.min(now.getTime() + maxMs, tokenExpiresAt.getTime()));
  return end.getTime() > now.getTime() ? end : null;
}
