import { toStorableText } from '@platform/http';
import { ProviderRejectedError, ProviderUnavailableError } from '../payments/index.js';

/**
 * Starts the time limit of one request to a provider: a signal that aborts (with a TimeoutError) once `ms` have
 * passed. Injected so that tests decide when a request left unanswered times out, instead of waiting for it.
 */
export type ProviderTimeout = (ms: number, request: { provider: string; url: string }) => AbortSignal;

/** The real time limit. */
const providerTimeoutAfter: ProviderTimeout = (ms) => AbortSignal.timeout(ms);

export interface ProviderHttp {
  /** Provider name, for errors and logs. */
  provider: string;
  baseUrl: string;
  /** The whole exchange (connect, send, read the answer) must finish within this. */
  timeoutMs: number;
  /** Starts each request's time limit; providerTimeoutAfter (AbortSignal.timeout) by default. */
  timeout?: ProviderTimeout;
}

export interface ProviderAnswer {
  status: number;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
}

/**
 * Sends one JSON request to a provider and reads the answer, whatever its status (callers decide what a
 * status means). Throws ProviderUnavailableError when no answer arrives in time (the request may have been
 * acted on), when the provider cannot be reached (nothing was sent), or when the connection breaks (it may
 * have been acted on).
 */
export async function requestProvider(
  http: ProviderHttp,
  path: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
): Promise<ProviderAnswer> {
  const url = `${http.baseUrl}${path}`;
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...init.headers,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      redirect: 'error',
      signal: (http.timeout ?? providerTimeoutAfter)(http.timeoutMs, { provider: http.provider, url }),
    });
    const text = await response.text();
    return { status: response.status, body: parseJson(text) };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new ProviderUnavailableError(http.provider, 'timeout', `no answer within ${http.timeoutMs} ms`, {
        cause: error,
      });
    }
    if (neverSent(error)) {
      throw new ProviderUnavailableError(http.provider, 'unreachable', 'could not be reached', { cause: error });
    }
    throw new ProviderUnavailableError(http.provider, 'connection_lost', 'the connection broke before an answer came', {
      cause: error,
    });
  }
}

// Errors raised before a request can have left this machine: the connection was never opened. Anything else
// (a reset, a socket closed early, an unknown failure) may have happened after the provider got the request.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  // The TLS handshake failed: nothing was sent over it.
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True when every underlying cause of a failed fetch is one that happens before anything is sent. */
function neverSent(error: unknown): boolean {
  // fetch refuses ports the Fetch standard blocks before opening any connection.
  if (error instanceof Error && error.cause instanceof Error && error.cause.message === 'bad port') return true;
  const codes = causeCodes(error);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

// fetch wraps the socket error in `cause`; connecting to several addresses at once gives an AggregateError.
function causeCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const { cause, errors, code } = error as { cause?: unknown; errors?: unknown; code?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.flatMap((inner) => leafCodes(inner, depth + 1));
  if (cause !== undefined) return causeCodes(cause, depth + 1);
  return typeof code === 'string' && depth > 0 ? [code] : [];
}

function leafCodes(error: unknown, depth: number): string[] {
  const codes = causeCodes(error, depth);
  if (codes.length > 0) return codes;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? [code] : ['unknown'];
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    // A provider's answer is recorded as it came, except text PostgreSQL cannot store (U+0000 -> U+FFFD).
    return toStorableText(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The error for an answer that is not a success: our credentials or a rate limit (not looked at), the
 * provider's fault (5xx: it may have acted before failing), or a refusal.
 */
export function failureOf(provider: string, answer: ProviderAnswer, providerMessage: string): Error {
  const { status } = answer;
  if (status === 401 || status === 403) {
    const message = `refused our credentials (${status}): ${providerMessage}`;
    return new ProviderUnavailableError(provider, 'credentials_refused', message);
  }
  if (status === 429) return new ProviderUnavailableError(provider, 'rate_limited', `answered 429: ${providerMessage}`);
  if (status >= 500) {
    return new ProviderUnavailableError(provider, 'server_error', `answered ${status}: ${providerMessage}`);
  }
  if (status >= 400) return new ProviderRejectedError(provider, status, providerMessage);
  return new ProviderUnavailableError(provider, 'unexpected_answer', `answered ${status} with an unexpected body`);
}

/** A plain object (parsed JSON), so its fields can be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The same failure, known to have happened before the request that matters was sent (e.g. while fetching
 * the access token it needs): nothing was acted on.
 */
export function beforeSending(error: unknown): unknown {
  if (!(error instanceof ProviderUnavailableError) || !error.mayHaveActed) return error;
  const message = error.message.startsWith(`${error.provider}: `)
    ? error.message.slice(error.provider.length + 2)
    : error.message;
  return new ProviderUnavailableError(error.provider, error.kind, `${message} (before the request was sent)`, {
    cause: error,
    mayHaveActed: false,
  });
}
