// How a provider adapter reports a request that failed: payments tell from it whether the provider may have
// acted on the request (the outcome is then unknown until asked) or certainly did not.

export type ProviderUnavailableKind =
  /** No answer within the timeout: the request may have been sent and acted on. */
  | 'timeout'
  /** The connection could not be opened (refused, no such host, bad certificate): nothing was sent. */
  | 'unreachable'
  /** The connection broke after it was opened (reset, closed early): the request may have been acted on. */
  | 'connection_lost'
  /** A 5xx answer: the provider failed somewhere, possibly after acting on the request. */
  | 'server_error'
  /** A 429 answer: the provider refused to look at the request now. */
  | 'rate_limited'
  /** Our credentials were refused (401/403), or a token could not be had: the request itself was not taken. */
  | 'credentials_refused'
  /** A 2xx (or other) answer without the fields we need: the provider may have acted on it. */
  | 'unexpected_answer';

// Kinds after which the provider may have acted on the request: its outcome is unknown until we ask it.
const MAY_HAVE_ACTED: ReadonlySet<ProviderUnavailableKind> = new Set([
  'timeout',
  'connection_lost',
  'server_error',
  'unexpected_answer',
]);

/**
 * A provider could not be asked: it did not answer in time, could not be reached, broke the connection,
 * failed (5xx), refused our credentials or answered something unreadable. `mayHaveActed` says whether the
 * request may nonetheless have been acted on (a charge made, a prompt sent): then its outcome is unknown, and
 * only asking the provider later tells. False only when the request certainly never reached it (or was
 * refused before being looked at).
 */
export class ProviderUnavailableError extends Error {
  readonly mayHaveActed: boolean;

  constructor(
    readonly provider: string,
    readonly kind: ProviderUnavailableKind,
    message: string,
    options?: { cause?: unknown; mayHaveActed?: boolean },
  ) {
    super(`${provider}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderUnavailableError';
    this.mayHaveActed = options?.mayHaveActed ?? MAY_HAVE_ACTED.has(kind);
  }
}

/** The provider answered and refused the request (a 4xx other than a credentials problem). */
export class ProviderRejectedError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    readonly providerMessage: string,
  ) {
    super(`${provider} refused the request (${status}): ${providerMessage}`);
    this.name = 'ProviderRejectedError';
  }
}
