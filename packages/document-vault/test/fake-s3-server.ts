import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type RecordedRequest = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer };

/**
 * A stand-in for an S3-compatible endpoint, path-style: PUT, GET and DELETE of one object, and ListObjectsV2 in pages
 * of `pageSize` keys. Objects live in `objects`; every request is recorded. With `failWith` set, every request is
 * answered with that status and an AccessDenied error.
 */
export interface FakeS3Server {
  endpoint: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  requests: RecordedRequest[];
  failWith: number | null;
  pageSize: number;
  close(): Promise<void>;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function startFakeS3Server(bucket = 'documents-bucket'): Promise<FakeS3Server> {
  const fake: FakeS3Server = {
    endpoint: '',
    bucket,
    objects: new Map(),
    requests: [],
    failWith: null,
    pageSize: 1000,
    close: async () => {},
  };

  function answer(request: IncomingMessage, body: Buffer) {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? '';
    if (fake.failWith !== null) {
      return {
        status: fake.failWith,
        headers: { 'content-type': 'application/xml' },
        body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
      };
    }
    const bucketPath = `/${bucket}`;
    if (url.pathname === bucketPath || url.pathname === `${bucketPath}/`) {
      if (method !== 'GET' || url.searchParams.get('list-type') !== '2') return { status: 501, headers: {}, body: '' };
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('continuation-token') ?? '';
      const keys = [...fake.objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
      const page = keys.slice(0, fake.pageSize);
      const truncated = keys.length > page.length;
      const contents = page
        .map((key) => `<Contents><Key>${xml(key)}</Key><Size>${fake.objects.get(key)?.body.length}</Size></Contents>`)
        .join('');
      return {
        status: 200,
        headers: { 'content-type': 'application/xml' },
        body:
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>' +
          `<Name>${bucket}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
          `<IsTruncated>${truncated}</IsTruncated>${contents}` +
          (truncated ? `<NextContinuationToken>${xml(page.at(-1) ?? '')}</NextContinuationToken>` : '') +
          '</ListBucketResult>',
      };
    }
    if (!url.pathname.startsWith(`${bucketPath}/`)) return { status: 404, headers: {}, body: '' };
    const key = decodeURIComponent(url.pathname.slice(bucketPath.length + 1));
    if (method === 'PUT') {
      fake.objects.set(key, { body, contentType: request.headers['content-type'] ?? 'binary/octet-stream' });
      return { status: 200, headers: { etag: '"0123456789abcdef"' }, body: '' };
    }
    if (method === 'DELETE') {
      fake.objects.delete(key);
      return { status: 204, headers: {}, body: '' };
    }
    if (method === 'GET') {
      const object = fake.objects.get(key);
      if (object === undefined) {
        return {
          status: 404,
          headers: { 'content-type': 'application/xml' },
          body: '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        };
      }
      return { status: 200, headers: { 'content-type': object.contentType }, body: object.body };
    }
    return { status: 501, headers: {}, body: '' };
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      fake.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const { status, headers, body: answerBody } = answer(request, body);
      response.writeHead(status, headers).end(answerBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
