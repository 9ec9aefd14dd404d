import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { quietPeriod } from '#test-timing';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

// An echo server behind the proxy: what goes through comes back.
async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Connects, sends `message`, and resolves once the echo is complete or the connection closed: however long the
 * machine takes, never after a fixed wait. With `quiet`, traffic is expected to stop: resolves with whatever
 * came back during a quiet period instead.
 */
function exchange(
  port: number,
  message: string,
  options: { quiet?: boolean } = {},
): Promise<{ reply: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    let closed = false;
    const done = () => {
      socket.destroy();
      resolve({ reply, closed });
    };
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (!options.quiet && reply.length >= message.length) done();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('connect', () => {
      socket.write(message);
      if (options.quiet) void quietPeriod().then(done);
    });
  });
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup) await close();
  cleanup = [];
});

async function echoBehindProxy(): Promise<TcpProxy> {
  const echo = await startEcho();
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
  cleanup.push(
    () => proxy.close(),
    () => echo.close(),
  );
  return proxy;
}

describe('the TCP proxy', () => {
  it('passes bytes both ways, refuses connections while cut (ECONNREFUSED), and passes them again once restored', async () => {
    const proxy = await echoBehindProxy();
    expect((await exchange(proxy.port, 'ping')).reply).toBe('ping');
    await proxy.cut();
    expect(await exchange(proxy.port, 'ping')).toEqual({ reply: '', closed: true });
    await proxy.restore();
    expect((await exchange(proxy.port, 'pong')).reply).toBe('pong');
  });

  it('drops open connections when cut', async () => {
    const proxy = await echoBehindProxy();
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.on('connect', resolve));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await proxy.cut();
    await expect(closed).resolves.toBeDefined();
  });

  it('freezes all traffic at the first bytes that carry the marker', async () => {
    const proxy = await echoBehindProxy();
    const frozen = proxy.freezeWhen('STOP');
    expect((await exchange(proxy.port, 'before')).reply).toBe('before');
    expect((await exchange(proxy.port, 'please STOP here', { quiet: true })).reply).toBe('');
    await expect(frozen).resolves.toBeUndefined();
    expect((await exchange(proxy.port, 'after', { quiet: true })).reply).toBe('');
  });
});
