/**
 * What a request that must never succeed carries, whoever sends it: text PostgreSQL cannot store in one place, a JSON
 * body that is not UTF-8, a single-line name that is not on one line, a date PostgreSQL cannot be asked about, or two
 * different idempotency keys on an idempotent route.
 */
export type FuzzProbe = 'unstorable-text' | 'not-utf8' | 'not-one-line' | 'unstorable-date' | 'two-idempotency-keys';

/** A request for `app.inject`, with the route it was made for. */
export interface FuzzRequest {
  route: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Text mostly; bytes for bodies that are not text (a multipart upload of an image). */
  payload?: string | Buffer;
  /** Set on a clean request that must never succeed, and why (FuzzProbe). */
  probe?: FuzzProbe;
}
