import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../../../../test/fake-http-server.js';
import { requestProvider } from './http.js';

// The time limit of a provider request: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) in production, replaceable so
// that tests time a silent provider out at once.

let server: FakeHttpServer;
const timedOut = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

beforeAll(async () => {
  server = await startFakeHttpServer(() => ({ status: 200, body: { ok: true } }));
  server.behaviour = 'hang';
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  server.onHang = undefined;
  vi.restoreAllMocks();
});

describe('requestProvider', () => {
  it('limits each request with AbortSignal.timeout(timeoutMs) by default, and reports a silence past it as a timeout', async () => {
    const limit = new AbortController();
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(limit.signal);
    server.onHang = () => limit.abort(timedOut());
    const failure = await requestProvider({ provider: 'paystack', baseUrl: server.url, timeoutMs: 15_000 }, '/slow', {
      method: 'GET',
      headers: {},
    }).catch((error: unknown) => error);
    expect(timeout).toHaveBeenCalledWith(15_000);
    expect(failure).toMatchObject({
      name: 'ProviderUnavailableError',
      kind: 'timeout',
      message: expect.stringContaining('no answer within 15000 ms'),
    });
  });

  it('starts the limit with the given timeout instead, naming the provider and the URL', async () => {
    const systemTimeout = vi.spyOn(AbortSignal, 'timeout');
    const limit = new AbortController();
    const started: unknown[] = [];
    server.onHang = () => limit.abort(timedOut());
    const http = {
      provider: 'daraja',
      baseUrl: server.url,
      timeoutMs: 30_000,
      timeout: (ms: number, request: { provider: string; url: string }) => {
        started.push({ ms, ...request });
        return limit.signal;
      },
    };
    const failure = await requestProvider(http, '/quiet', { method: 'POST', headers: {}, body: {} }).catch(
      (error: unknown) => error,
    );
    expect(started).toEqual([{ ms: 30_000, provider: 'daraja', url: `${server.url}/quiet` }]);
    expect(systemTimeout).not.toHaveBeenCalled();
    expect(failure).toMatchObject({ kind: 'timeout', mayHaveActed: true });
  });
});
