import { ProviderRejectedError, ProviderUnavailableError } from './errors.js';

export interface ProviderHttp {
  /** Provider name, for errors and logs. */
  provider: string;
  baseUrl: string;
  /** The whole exchange (connect, send, read the answer) must finish within this. */
  timeoutMs: number;
}

export interface ProviderAnswer {
  status: number;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
}

/**
 * Sends one JSON request to a provider and reads the answer, whatever its status (callers decide what a
 * status means). Throws ProviderUnavailableError when no answer arrives in time or the provider cannot be
 * reached.
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
      signal: AbortSignal.timeout(http.timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, body: parseJson(text) };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new ProviderUnavailableError(http.provider, 'timeout', `no answer within ${http.timeoutMs} ms`, { cause: error });
    }
    throw new ProviderUnavailableError(http.provider, 'unreachable', 'could not be reached', { cause: error });
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The error for an answer that is not a success: our credentials, the provider's fault, or a refusal. */
export function failureOf(provider: string, answer: ProviderAnswer, providerMessage: string): Error {
  const { status } = answer;
  if (status === 401 || status === 403) {
    const message = `refused our credentials (${status}): ${providerMessage}`;
    return new ProviderUnavailableError(provider, 'credentials_refused', message);
  }
  if (status === 429 || status >= 500) {
    return new ProviderUnavailableError(provider, 'server_error', `answered ${status}: ${providerMessage}`);
  }
  if (status >= 400) return new ProviderRejectedError(provider, status, providerMessage);
  return new ProviderUnavailableError(provider, 'unexpected_answer', `answered ${status} with an unexpected body`);
}

/** A plain object (parsed JSON), so its fields can be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
