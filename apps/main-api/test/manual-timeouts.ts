import type { ProviderTimeout } from '../src/modules/billing/index.js';
import type { FakeHttpServer, FakeRequest } from './fake-http-server.js';

interface StartedLimit {
  provider: string;
  /** The request's full URL. */
  url: string;
  /** The limit the provider client asked for (PROVIDER_TIMEOUT_MS). */
  ms: number;
}

export interface ManualTimeouts {
  /** The app's `providerTimeout` dependency. */
  timeout: ProviderTimeout;
  /** Every limit started, oldest first. */
  started: StartedLimit[];
  /**
   * Runs out now the limits of the requests to `url` (its full URL; every request when omitted): one still
   * waiting for its answer fails with a timeout; one already answered is unaffected.
   */
  expire(url?: string): void;
  /** From now on, a request `server` leaves unanswered times out as soon as the fake has decided so. */
  expireOnHang(server: FakeHttpServer): void;
}

/**
 * Provider time limits a test runs out by hand, so that a request a fake provider leaves unanswered times out
 * at once and deterministically, while PROVIDER_TIMEOUT_MS stays generous (a slow answer on a loaded machine
 * is never mistaken for silence). The real timer still runs behind each limit, so a test that forgets to
 * expire a hanging request is slow rather than stuck.
 */
export function manualTimeouts(): ManualTimeouts {
  let waiting: Array<{ url: string; controller: AbortController }> = [];
  const started: StartedLimit[] = [];

  const expire = (url?: string): void => {
    const due = waiting.filter((entry) => url === undefined || entry.url === url);
    waiting = waiting.filter((entry) => !due.includes(entry));
    for (const { controller } of due)
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  };

  return {
    started,
    timeout(ms, request) {
      started.push({ ...request, ms });
      const controller = new AbortController();
      waiting.push({ url: request.url, controller });
      return AbortSignal.any([controller.signal, AbortSignal.timeout(ms)]);
    },
    expire,
    expireOnHang(server) {
      server.onHang = (request: FakeRequest) => {
        expire(`${server.url}${request.url}`);
      };
    },
  };
}
