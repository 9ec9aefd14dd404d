import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Receiver, startReceiver } from '../test/receiver.js';
import { createWebhookSender, DEFAULT_TIMEOUT_MS, startRequestTimer } from './http-sender.js';
import type { HostResolver } from './target-guard.js';
import { WebhookTargetRefusedError } from './target-guard.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond = () => ({ status: 204 });
});

const port = () => new URL(receiver.origin).port;
const webhook = (url: string) => ({ url, headers: { 'webhook-id': 'msg_1' }, body: '{"id":"msg_1"}' });

/** A resolver that answers 127.0.0.1 for every name (a public-looking name pointing at this machine). */
function loopbackResolver() {
  const calls: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    calls.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  return { calls, resolve };
}

describe('createWebhookSender', () => {
  it('POSTs the exact body as JSON with the given headers, and returns the status', async () => {
    receiver.respond = () => ({ status: 202 });
    const send = createWebhookSender({ allowPrivateTargets: true });
    const response = await send(webhook(`${receiver.origin}/hooks?x=1`));
    expect(response).toEqual({ status: 202 });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks?x=1', body: '{"id":"msg_1"}' });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'content-length': '14',
    });
  });

  it('does not follow a redirect: the 3xx is the answer and its target is never asked', async () => {
    receiver.respond = (request) =>
      request.path === '/moved'
        ? { status: 302, headers: { location: `${receiver.origin}/elsewhere` } }
        : { status: 204 };
    const send = createWebhookSender({ allowPrivateTargets: true });
    // A sender that followed it would answer with the target's 204, after asking it: nothing to wait for.
    expect(await send(webhook(`${receiver.origin}/moved`))).toEqual({ status: 302 });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/moved']);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    // The limit runs out, by hand, once the receiver has the request and stays silent: no waiting for it.
    const limits: Array<{ ms: number; expire: () => void }> = [];
    const send = createWebhookSender({
      allowPrivateTargets: true,
      timeoutMs: 20_000,
      startTimer: (ms, expire) => {
        limits.push({ ms, expire });
        return () => undefined;
      },
    });
    receiver.respond = () => {
      for (const { expire } of limits) expire();
      return new Promise(() => {});
    };
    await expect(send(webhook(`${receiver.origin}/slow`))).rejects.toThrow('No response within 20 s');
    expect(limits.map(({ ms }) => ms)).toEqual([20_000]);
  });

  it('limits each request to 15 s by default, and stops the limit once the answer came', async () => {
    const timers: Array<{ ms: number; stopped: boolean }> = [];
    const send = createWebhookSender({
      allowPrivateTargets: true,
      startTimer: (ms, expire) => {
        const timer = { ms, stopped: false };
        timers.push(timer);
        const stop = startRequestTimer(ms, expire);
        return () => {
          timer.stopped = true;
          stop();
        };
      },
    });
    expect(await send(webhook(`${receiver.origin}/hook`))).toEqual({ status: 204 });
    expect(timers).toEqual([{ ms: DEFAULT_TIMEOUT_MS, stopped: true }]);
    expect(DEFAULT_TIMEOUT_MS).toBe(15_000);
  });

  it('starts the real limit as a timer that never keeps the process alive', () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const stop = startRequestTimer(15_000, () => undefined);
    const timer = setTimeoutSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    stop();
    setTimeoutSpy.mockRestore();
  });

  it('expires the real limit once due, and never once stopped', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let expired = 0;
      startRequestTimer(15_000, () => (expired += 1));
      vi.advanceTimersByTime(14_999);
      expect(expired).toBe(0);
      vi.advanceTimersByTime(1);
      expect(expired).toBe(1);
      const stop = startRequestTimer(15_000, () => (expired += 1));
      stop();
      vi.advanceTimersByTime(60_000);
      expect(expired).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [() => `http://127.0.0.1:${port()}/hook`, 'The callback URL must use https'],
    [() => `https://127.0.0.1:${port()}/hook`, 'The callback URL must not point to 127.0.0.1 (loopback)'],
    [() => `https://[::1]:${port()}/hook`, 'The callback URL must not point to ::1 (loopback)'],
    [() => `https://localhost:${port()}/hook`, 'The callback URL must not point to localhost'],
    [() => `https://192.168.0.10:${port()}/hook`, 'The callback URL must not point to 192.168.0.10 (private)'],
  ])('refuses private and loopback targets unless allowed (%#)', async (url, message) => {
    const send = createWebhookSender({ allowPrivateTargets: false });
    const attempt = send(webhook(url()));
    await expect(attempt).rejects.toBeInstanceOf(WebhookTargetRefusedError);
    await expect(attempt).rejects.toThrow(message);
    expect(receiver.requests).toHaveLength(0);
  });

  it('checks the resolved address when connecting: a public-looking name that resolves to 127.0.0.1 is refused', async () => {
    const { calls, resolve } = loopbackResolver();
    const send = createWebhookSender({ allowPrivateTargets: false, resolve });
    const attempt = send(webhook(`https://hooks.customer.example:${port()}/hook`));
    await expect(attempt).rejects.toBeInstanceOf(WebhookTargetRefusedError);
    await expect(attempt).rejects.toThrow(
      'hooks.customer.example resolves to 127.0.0.1 (loopback), which is not a public address',
    );
    expect(calls).toEqual(['hooks.customer.example']);
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the very address its lookup approved (one resolution, no second lookup to rebind)', async () => {
    // Allowed here, so the stub's answer is used: the request lands on this machine although the name is not local.
    const { calls, resolve } = loopbackResolver();
    const send = createWebhookSender({ allowPrivateTargets: true, resolve });
    expect(await send(webhook(`http://hooks.customer.example:${port()}/hook`))).toEqual({ status: 204 });
    expect(calls).toEqual(['hooks.customer.example']);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers.host).toBe(`hooks.customer.example:${port()}`);
  });

  it('reports connection failures as errors that are not refusals', async () => {
    const closed = await startReceiver();
    const origin = closed.origin;
    await closed.close();
    const send = createWebhookSender({ allowPrivateTargets: true });
    const attempt = send(webhook(`${origin}/hook`));
    await expect(attempt).rejects.toThrow(/ECONNREFUSED/);
    await expect(attempt).rejects.not.toBeInstanceOf(WebhookTargetRefusedError);
  });
});
