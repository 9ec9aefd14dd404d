import { randomUUID } from 'node:crypto';

export const requestIdHeader = 'x-request-id';

// Visible ASCII only: the id is echoed in a header and written to logs, so nothing that could split either.
const acceptableRequestId = /^[\x21-\x7e]{1,128}$/;

export function isAcceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && acceptableRequestId.test(value);
}

/** The caller's x-request-id when it is 1-128 visible ASCII characters, else a fresh UUID. */
export function requestIdFrom(headerValue: string | string[] | undefined): string {
  return isAcceptableRequestId(headerValue) ? headerValue : randomUUID();
}
