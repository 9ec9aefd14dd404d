// Signs that a backing service (the database above all) could not be reached or dropped the connection, as
// Node's sockets, postgres.js and PostgreSQL report them. Such a failure is not the request's fault and not a
// bug: the client should retry shortly, so it is a 503, not a 500.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // postgres.js
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // PostgreSQL: shutting down, starting up, or out of connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

// SQLSTATE class 08: connection exception.
const CONNECTION_EXCEPTION_CLASS = /^08[0-9A-Z]{3}$/;

const MAX_CAUSE_DEPTH = 5;

/** Whether `error`, or an error it was caused by (drizzle wraps the driver's), is a lost or refused connection. */
export function isBackingServiceOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || CONNECTION_EXCEPTION_CLASS.test(code)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
