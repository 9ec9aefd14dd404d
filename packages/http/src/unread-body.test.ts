import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { unauthorized } from '@platform/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppServer, type CreateServerOptions, createServer } from './create-server.js';
import {
  baseUrlOf,
  capturingLogger,
  jsonOfSize,
  sendRawRequest,
  uploadStreamWithFetch,
  uploadWithFetch,
  uploadWithHttpRequest,
} from './testing/transport.js';
import { drainUnreadBody } from './unread-body.js';

const service = { name: 'test-service', version: '1.2.3', description: 'Service under test' };
const MiB = 1024 * 1024;
// Over the default 1 MiB body limit, under the 64 MiB drain bound.
const OVERSIZED = 11 * MiB;

let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listening(options: Partial<CreateServerOptions> = {}): Promise<{ baseUrl: string; lines: string[] }> {
  const { logger, lines } = capturingLogger();
  app = createServer({ service, logger, ...options });
  app.register(async (routes) => {
    routes.post('/v1/echo', async (request) => ({ received: request.body }));
    // Refused in onRequest, before its body is read, like an upload without credentials.
    routes.post(
      '/v1/guarded',
      {
        onRequest: async () => {
          throw unauthorized();
        },
      },
      async () => ({ ok: true }),
    );
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl: baseUrlOf(app), lines };
}

function expectTooLarge(answer: { status: number; body: string }): void {
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({
    success: false,
    error: 'Request body is larger than the limit of 1048576 bytes',
    code: 'payload_too_large',
    requestId: expect.any(String),
  });
}

describe('a body over the limit, sent by a client that is still sending when the 413 comes', () => {
  it('reaches fetch with a string body (Content-Length over the limit: refused before reading)', async () => {
    const { baseUrl } = await listening();
    expectTooLarge(await uploadWithFetch(`${baseUrl}/v1/echo`, jsonOfSize(OVERSIZED)));
  });

  it('reaches fetch with a ReadableStream body (chunked: refused once the limit is passed)', async () => {
    const { baseUrl } = await listening();
    expectTooLarge(await uploadStreamWithFetch(`${baseUrl}/v1/echo`, OVERSIZED));
  });

  it.each([
    ['chunked', false],
    ['with Content-Length', true],
  ])(
    'reaches http.request streaming in 64 KiB writes (%s), which finishes sending without EPIPE',
    async (_case, contentLength) => {
      const { baseUrl } = await listening();
      const answer = await uploadWithHttpRequest(`${baseUrl}/v1/echo`, OVERSIZED, { contentLength });
      expectTooLarge(answer);
      expect(answer.clientError).toBeUndefined();
    },
  );

  it('reaches a client that reads only once it has sent the whole body, then closes the connection', async () => {
    const { baseUrl } = await listening();
    const head = `POST /v1/echo HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: ${OVERSIZED}\r\n\r\n`;
    const answer = await sendRawRequest(
      baseUrl,
      Buffer.concat([Buffer.from(head), Buffer.from(jsonOfSize(OVERSIZED))]),
    );
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('bodies answered before they are read', () => {
  it('keeps the connection usable after a 401 once the body is drained', async () => {
    const { baseUrl } = await listening();
    const body = jsonOfSize(3 * MiB);
    const guarded = `POST /v1/guarded HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const answer = await sendRawRequest(
      baseUrl,
      `${guarded}GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n`,
    );
    expect(answer.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    // The next request on the same connection was read after the body, and answered.
    expect(answer.body).toContain('HTTP/1.1 200 OK');
  });

  it.each([
    ['413 over the body limit', '/v1/echo'],
    ['401 before reading', '/v1/guarded'],
  ])(
    'destroys the connection once more than the drain bound is discarded after a %s, and logs it',
    async (_case, path) => {
      const { baseUrl, lines } = await listening({ unreadBodyDrain: { maxBytes: 2 * MiB } });
      const head = `POST ${path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: ${OVERSIZED}\r\n\r\n`;
      await expect(
        sendRawRequest(baseUrl, Buffer.concat([Buffer.from(head), Buffer.from(jsonOfSize(OVERSIZED))])),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^(EPIPE|ECONNRESET)$/),
      });
      const closed = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.bound !== undefined);
      expect(closed).toEqual([
        expect.objectContaining({
          level: 30,
          bound: 'size',
          msg: 'closed a connection still sending an answered request body',
        }),
      ]);
    },
  );
});

describe('drainUnreadBody', () => {
  class FakeSocket extends EventEmitter {
    destroyed = false;
    ended = false;
    closedSoon = 0;
    end(): void {
      this.ended = true;
    }
    destroy(): void {
      this.destroyed = true;
    }
    destroySoon(): void {
      this.closedSoon += 1;
    }
  }
  const limits = { maxBytes: 10 * MiB, timeoutMs: 30_000 };
  const { logger } = capturingLogger();

  function unreadRequest() {
    const socket = new FakeSocket();
    const body = new PassThrough();
    return { socket, body, request: Object.assign(body, { socket }) as unknown as IncomingMessage };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('destroys the connection when the rest of the body takes longer than the time bound', () => {
    vi.useFakeTimers();
    const { socket, body, request } = unreadRequest();
    drainUnreadBody(request, limits, logger);
    body.write(Buffer.alloc(1024));
    vi.advanceTimersByTime(limits.timeoutMs - 1);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });

  it('holds a close Node asks for until the body has ended, then closes', async () => {
    const { socket, body, request } = unreadRequest();
    drainUnreadBody(request, limits, logger);
    // What Node calls after a `Connection: close` answer.
    socket.destroySoon();
    expect(socket).toMatchObject({ ended: true, closedSoon: 0, destroyed: false });
    const ended = new Promise((resolve) => body.once('end', resolve));
    body.end(Buffer.alloc(2 * MiB));
    await ended;
    expect(socket.closedSoon).toBe(1);
    expect(socket.destroyed).toBe(false);
  });

  it('takes the body away from a parser that stopped reading it (multipart)', async () => {
    const { body, request } = unreadRequest();
    const stalled = new Writable({ highWaterMark: 1024, write: () => undefined });
    body.pipe(stalled);
    drainUnreadBody(request, limits, logger);
    const ended = new Promise((resolve) => body.once('end', resolve));
    body.end(Buffer.alloc(MiB));
    await expect(ended).resolves.toBeUndefined();
  });
});
