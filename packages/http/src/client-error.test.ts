import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerClientError, type ClientError } from './client-error.js';
import { type AppServer, createServer } from './create-server.js';
import { baseUrlOf, capturingLogger, type RawAnswer, sendRawRequest } from './testing/transport.js';

const service = { name: 'test-service', version: '1.2.3', description: 'Service under test' };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// Sent inside every refused request: it must never come back in a log line.
const MARKER = 'MARKER-7f3a9c-refused-bytes';

let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listening(): Promise<{ baseUrl: string; lines: string[] }> {
  const { logger, lines } = capturingLogger('debug');
  app = createServer({ service, logger });
  app.register(async (routes) => {
    routes.post('/v1/echo', async (request) => ({ received: request.body }));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  lines.length = 0; // "Server listening at..."
  return { baseUrl: baseUrlOf(app), lines };
}

function expectEnvelope(answer: RawAnswer, statusLine: string, code: string): void {
  expect(answer.statusLine).toBe(statusLine);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(answer.headers['x-request-id']).toMatch(uuid);
  const envelope = JSON.parse(answer.body) as Record<string, unknown>;
  expect(envelope).toEqual({
    success: false,
    error: expect.any(String),
    code,
    requestId: answer.headers['x-request-id'],
  });
  expect(answer.body).not.toContain(MARKER);
}

/**
 * Exactly one line about the refusal, at info, naming the parser's code and the answer's request id; no line
 * above info (a refused request is not our fault) and none with the refused bytes.
 */
function expectOneRefusalLine(lines: string[], parserCode: string, requestId: string | undefined): void {
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(entries.filter((entry) => entry.msg === 'request refused by the HTTP parser')).toEqual([
    expect.objectContaining({ level: 30, reqId: requestId, code: parserCode }),
  ]);
  expect(entries.filter((entry) => Number(entry.level) > 30)).toEqual([]);
  for (const line of lines) expect(line).not.toContain(MARKER);
}

describe('requests refused by the HTTP parser', () => {
  it('answers a header block over the limit with 431 and the envelope', async () => {
    const { baseUrl, lines } = await listening();
    const answer = await sendRawRequest(
      baseUrl,
      `GET /healthz HTTP/1.1\r\nhost: test\r\nx-padding: ${MARKER}${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectEnvelope(answer, 'HTTP/1.1 431 Request Header Fields Too Large', 'request_header_fields_too_large');
    expectOneRefusalLine(lines, 'HPE_HEADER_OVERFLOW', answer.headers['x-request-id']);
    // Fastify never saw a request.
    expect(lines).toHaveLength(1);
  });

  it.each([
    [
      'a control character in a header value',
      `GET /healthz HTTP/1.1\r\nhost: test\r\nx-note: ${MARKER}\x01\r\n\r\n`,
      'HPE_INVALID_HEADER_TOKEN',
      false,
    ],
    [
      'a space in a header name',
      `GET /healthz HTTP/1.1\r\nhost: test\r\nx ${MARKER}: 1\r\n\r\n`,
      'HPE_INVALID_HEADER_TOKEN',
      false,
    ],
    ['a broken request line', `GET /${MARKER} HTTP/1.1 extra\r\nhost: test\r\n\r\n`, 'HPE_INVALID_VERSION', false],
    [
      'an invalid chunk size',
      `POST /v1/echo HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${MARKER}\r\n{}\r\n0\r\n\r\n`,
      'HPE_INVALID_CHUNK_SIZE',
      // The headers were fine: Fastify had started on the request, and logs its end too.
      true,
    ],
  ])('answers %s with 400 bad_request in the envelope', async (_case, request, parserCode, reachesFastify) => {
    const { baseUrl, lines } = await listening();
    const answer = await sendRawRequest(baseUrl, request);
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request');
    expectOneRefusalLine(lines, parserCode, answer.headers['x-request-id']);
    if (!reachesFastify) expect(lines).toHaveLength(1);
  });

  it('answers an HTTP/1.1 request without a Host header with 400 bad_request in the envelope', async () => {
    const { baseUrl } = await listening();
    const answer = await sendRawRequest(baseUrl, 'GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n');
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers['x-request-id']).toMatch(uuid);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      error: 'HTTP/1.1 requests need a Host header',
      code: 'bad_request',
      requestId: answer.headers['x-request-id'],
    });
    // HTTP/1.0 has no such rule.
    expect((await sendRawRequest(baseUrl, 'GET /healthz HTTP/1.0\r\n\r\n')).statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('still serves a well-formed request on a fresh connection afterwards', async () => {
    const { baseUrl } = await listening();
    await sendRawRequest(baseUrl, `GET /healthz HTTP/1.1\r\nhost: test\r\nx-note: ${MARKER}\x01\r\n\r\n`);
    const answer = await sendRawRequest(baseUrl, 'GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n');
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
  });
});

describe('answerClientError, like Node', () => {
  type FakeSocket = {
    destroyed: boolean;
    writable: boolean;
    write: ReturnType<typeof vi.fn>;
    destroy: ReturnType<typeof vi.fn>;
    _httpMessage?: unknown;
  };
  const fakeSocket = (state: Partial<FakeSocket> = {}): FakeSocket => ({
    destroyed: false,
    writable: true,
    write: vi.fn(),
    destroy: vi.fn(),
    ...state,
  });
  const parserError = (code: string): ClientError =>
    Object.assign(new Error(`Parse Error: ${MARKER}`), { code, rawPacket: Buffer.from(MARKER) });

  function answer(error: ClientError, socket: FakeSocket) {
    const { logger, lines } = capturingLogger('debug');
    answerClientError.call({ log: logger as FastifyBaseLogger }, error, socket as unknown as Socket);
    return lines;
  }

  it('only destroys a connection the peer reset, writing and logging nothing', () => {
    const socket = fakeSocket();
    const lines = answer(parserError('ECONNRESET'), socket);
    expect(socket.write).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalledOnce();
    expect(lines).toEqual([]);
  });

  it('writes nothing on a socket that is no longer writable', () => {
    const socket = fakeSocket({ writable: false });
    answer(parserError('HPE_INVALID_METHOD'), socket);
    expect(socket.write).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalledOnce();
  });

  it('writes nothing over a response already under way on the socket', () => {
    const socket = fakeSocket({ _httpMessage: { headersSent: true } });
    answer(parserError('HPE_INVALID_CHUNK_SIZE'), socket);
    expect(socket.write).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalledOnce();
  });

  it("keeps Node's bare 408 for a request that took too long, with a request id", () => {
    const socket = fakeSocket();
    answer(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    expect(socket.write).toHaveBeenCalledOnce();
    expect(String(socket.write.mock.calls[0]?.[0])).toMatch(
      /^HTTP\/1\.1 408 Request Timeout\r\nconnection: close\r\nx-request-id: \S+\r\n\r\n$/,
    );
  });

  it("answers chunk extensions over Node's limit with 413 payload_too_large, as Node answers 413", () => {
    const socket = fakeSocket();
    answer(parserError('HPE_CHUNK_EXTENSIONS_OVERFLOW'), socket);
    const written = String(socket.write.mock.calls[0]?.[0]);
    expect(written).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(written).toContain('"code":"payload_too_large"');
  });

  it('never logs the raw packet or the parser message', () => {
    const lines = answer(parserError('HPE_INVALID_HEADER_TOKEN'), fakeSocket());
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(MARKER);
  });
});
