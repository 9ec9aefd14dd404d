/**
 * A provider could not be asked: it did not answer in time, could not be reached, failed (5xx), refused our
 * credentials or answered something unreadable. After a `timeout` the fate of the request is unknown.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: 'timeout' | 'unreachable' | 'server_error' | 'credentials_refused' | 'unexpected_answer',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = 'ProviderUnavailableError';
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
