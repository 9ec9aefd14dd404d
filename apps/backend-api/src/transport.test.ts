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
import { buildTestApp, replaceOrganizations, type TestOrganization, useTestDatabase } from '../test/app-fixtures.js';
import type { BackendApp } from './app.js';
import { API_KEY_HEADER } from './plugins/api-key-authentication.js';

// backend-api over real sockets: what Node's parser refuses, and bodies over the limit sent by clients that
// are still sending when the answer comes.

const MiB = 1024 * 1024;
// Over backend-api's default 1 MiB body limit (BODY_LIMIT_BYTES).
const OVERSIZED = 11 * MiB;
const MARKER = 'MARKER-backend-api-9d27-refused-bytes';

const database = useTestDatabase();
let app: BackendApp;
let baseUrl: string;
let logLines: string[];
let organization: TestOrganization;

beforeAll(async () => {
  const { logger, lines } = capturingLogger();
  logLines = lines;
  app = await buildTestApp(database.handle, { logger });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = baseUrlOf(app);
  [organization] = await replaceOrganizations(database.db, 'Transport');
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => {
  logLines.length = 0;
});

describe('backend-api: requests refused by the HTTP parser', () => {
  it.each([
    [
      'a header block over the limit',
      `GET /v1/wallet HTTP/1.1\r\nhost: test\r\nx-padding: ${MARKER}${'a'.repeat(20_000)}\r\n\r\n`,
      'HTTP/1.1 431 Request Header Fields Too Large',
      'request_header_fields_too_large',
      'HPE_HEADER_OVERFLOW',
    ],
    [
      'a control character in a header',
      `GET /v1/wallet HTTP/1.1\r\nhost: test\r\n${API_KEY_HEADER}: ${MARKER}\x01\r\n\r\n`,
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

describe('backend-api: a JSON body over the limit, still being sent when the 413 comes', () => {
  const url = () => `${baseUrl}/v1/verify/sessions`;
  const headers = () => ({ [API_KEY_HEADER]: organization.testKey });
  function expectTooLarge(answer: UploadAnswer): void {
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'payload_too_large' });
    expect(answer.clientError).toBeUndefined();
  }

  it('reaches fetch with a string body', async () => {
    expectTooLarge(await uploadWithFetch(url(), jsonOfSize(OVERSIZED), { headers: headers() }));
  });

  it('reaches fetch with a ReadableStream body', async () => {
    expectTooLarge(await uploadStreamWithFetch(url(), OVERSIZED, { headers: headers() }));
  });

  it('reaches http.request streaming the body in chunks, which finishes sending without EPIPE', async () => {
    expectTooLarge(await uploadWithHttpRequest(url(), OVERSIZED, { headers: headers() }));
  });
});
