import { avatarUploads } from '@platform/db/schema';
import {
  baseUrlOf,
  capturingLogger,
  jsonOfSize,
  sendRawRequest,
  type UploadAnswer,
  uploadStreamWithFetch,
  uploadWithFetch,
  uploadWithHttpRequest,
} from '@platform/http/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertUser, type TestApp } from '../test/helpers.js';
import { tinyPng } from '../test/images.js';

// main-api over real sockets: what Node's parser refuses, and bodies over the limit sent by clients that are
// still sending when the answer comes.

const USER = 'user_transport';
const MiB = 1024 * 1024;
// Over main-api's default 1 MiB body limit (BODY_LIMIT_BYTES) and 5 MiB avatar limit (AVATAR_MAX_BYTES).
const OVERSIZED = 11 * MiB;
const MARKER = 'MARKER-main-api-4c1e-refused-bytes';

let t: TestApp;
let baseUrl: string;
let logLines: string[];
let authorization: Record<string, string>;

beforeAll(async () => {
  const { logger, lines } = capturingLogger();
  logLines = lines;
  t = await createTestApp({ deps: { logger } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = baseUrlOf(t.app);
  authorization = await authHeader(USER);
  await insertUser(t.db, { id: USER });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  logLines.length = 0;
});

describe('main-api: requests refused by the HTTP parser', () => {
  it.each([
    [
      'a header block over the limit',
      `GET /v1/accounts/me HTTP/1.1\r\nhost: test\r\nx-padding: ${MARKER}${'a'.repeat(20_000)}\r\n\r\n`,
      'HTTP/1.1 431 Request Header Fields Too Large',
      'request_header_fields_too_large',
      'HPE_HEADER_OVERFLOW',
    ],
    [
      'a control character in a header',
      `GET /v1/accounts/me HTTP/1.1\r\nhost: test\r\nauthorization: Bearer ${MARKER}\x01\r\n\r\n`,
      'HTTP/1.1 400 Bad Request',
      'bad_request',
      'HPE_INVALID_HEADER_TOKEN',
    ],
  ])(
    'answers %s with the envelope and logs it once, without the bytes',
    async (_case, request, statusLine, code, parserCode) => {
      const answer = await sendRawRequest(baseUrl, request);
      expect(answer.statusLine).toBe(statusLine);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body)).toEqual({
        success: false,
        error: expect.any(String),
        code,
        requestId: answer.headers['x-request-id'],
      });
      expect(logLines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
        expect.objectContaining({ level: 30, code: parserCode, reqId: answer.headers['x-request-id'] }),
      ]);
      expect(logLines.join('')).not.toContain(MARKER);
    },
  );
});

describe('main-api: a JSON body over the limit, still being sent when the 413 comes', () => {
  const url = () => `${baseUrl}/v1/accounts/me`;
  function expectTooLarge(answer: UploadAnswer): void {
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'payload_too_large' });
    expect(answer.clientError).toBeUndefined();
  }

  it('reaches fetch with a string body', async () => {
    expectTooLarge(await uploadWithFetch(url(), jsonOfSize(OVERSIZED), { method: 'PATCH', headers: authorization }));
  });

  it('reaches fetch with a ReadableStream body', async () => {
    expectTooLarge(await uploadStreamWithFetch(url(), OVERSIZED, { method: 'PATCH', headers: authorization }));
  });

  it('reaches http.request streaming the body in chunks, which finishes sending without EPIPE', async () => {
    expectTooLarge(await uploadWithHttpRequest(url(), OVERSIZED, { method: 'PATCH', headers: authorization }));
  });
});

describe('main-api: an avatar over the limit, uploaded with fetch', () => {
  it('answers 413 payload_too_large and stores nothing', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(tinyPng(8 * MiB))], { type: 'image/png' }), 'me.png');
    const response = await fetch(`${baseUrl}/v1/auth/avatar`, { method: 'POST', headers: authorization, body: form });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      code: 'payload_too_large',
      error: `The avatar must be at most ${5 * MiB} bytes`,
    });
    expect(await t.db.select().from(avatarUploads)).toEqual([]);
  });
});
