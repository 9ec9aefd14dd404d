import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tinyPng } from '../../test/images.js';
import { createS3Storage } from './s3.js';

type RecordedRequest = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer };

// A stand-in for an S3-compatible endpoint: accepts every PUT and records it.
let server: Server;
let endpoint: string;
let requests: RecordedRequest[] = [];
let answerStatus = 200;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      if (answerStatus === 200) {
        response.writeHead(200, { etag: '"0123456789abcdef"' }).end();
      } else {
        response
          .writeHead(answerStatus, { 'content-type': 'application/xml' })
          .end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});
beforeEach(() => {
  requests = [];
  answerStatus = 200;
});

function storage() {
  return createS3Storage({
    endpoint,
    region: 'eu-west-1',
    bucket: 'avatars-bucket',
    accessKeyId: 'test-access-key',
    secretAccessKey: 'test-secret-key',
    publicUrl: 'https://cdn.example.com/',
  });
}

describe('S3 storage', () => {
  it('PUTs the object path-style, signed, with its content type, and returns the public URL', async () => {
    const body = tinyPng();
    const key = 'avatars/user_1/3d3c7a52-2f0e-4c9b-8c1e-7a0d5b6f4e21.png';

    const { url } = await storage().put({ key, body, contentType: 'image/png' });

    expect(url).toBe(`https://cdn.example.com/${key}`);
    expect(requests).toHaveLength(1);
    const [put] = requests;
    expect(put?.method).toBe('PUT');
    expect(put?.url.split('?')[0]).toBe(`/avatars-bucket/${key}`);
    expect(put?.headers['content-type']).toBe('image/png');
    expect(put?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-access-key\/\d{8}\/eu-west-1\/s3\//);
    expect(put?.body.equals(body)).toBe(true);
  });

  it('rejects when the bucket refuses the upload', async () => {
    answerStatus = 403;
    await expect(
      storage().put({
        key: 'avatars/u/5d1c7a52-2f0e-4c9b-8c1e-7a0d5b6f4e21.png',
        body: tinyPng(),
        contentType: 'image/png',
      }),
    ).rejects.toThrow(/Access Denied/);
  });

  it('refuses a key that could escape its prefix, without a request', async () => {
    await expect(
      storage().put({ key: '../other/file.png', body: tinyPng(), contentType: 'image/png' }),
    ).rejects.toThrow(/unsafe key/);
    expect(requests).toHaveLength(0);
  });
});
