import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeS3Server, startFakeS3Server } from '../test/fake-s3-server.js';
import { createS3ObjectStore } from './s3.js';

let fake: FakeS3Server;

beforeAll(async () => {
  fake = await startFakeS3Server('documents-bucket');
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.objects.clear();
  fake.requests = [];
  fake.failWith = null;
  fake.pageSize = 1000;
});

function store() {
  return createS3ObjectStore({
    endpoint: fake.endpoint,
    region: 'eu-west-1',
    bucket: 'documents-bucket',
    accessKeyId: 'test-access-key',
    secretAccessKey: 'test-secret-key',
  });
}

describe('S3 object store', () => {
  it('PUTs the object path-style and signed, private and uncached, and GETs the same bytes back', async () => {
    const bytes = Buffer.from('sealed document bytes');
    await store().put('kyc/session_1/doc_1', bytes, 'application/octet-stream');

    expect(fake.requests).toHaveLength(1);
    const [put] = fake.requests;
    expect(put?.method).toBe('PUT');
    expect(put?.url.split('?')[0]).toBe('/documents-bucket/kyc/session_1/doc_1');
    expect(put?.headers['content-type']).toBe('application/octet-stream');
    expect(put?.headers['cache-control']).toBe('private, no-store');
    expect(put?.headers['x-amz-acl']).toBeUndefined();
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-access-key\/\d{8}\/eu-west-1\/s3\//);
    expect(put?.body.equals(bytes)).toBe(true);

    expect((await store().get('kyc/session_1/doc_1'))?.equals(bytes)).toBe(true);
  });

  it('answers null for a missing object', async () => {
    expect(await store().get('kyc/session_1/missing')).toBeNull();
  });

  it('deletes an object, and deleting it again succeeds', async () => {
    await store().put('kyc/session_1/doc_1', Buffer.from('x'), 'application/octet-stream');
    await store().delete('kyc/session_1/doc_1');
    await store().delete('kyc/session_1/doc_1');
    expect(fake.objects.size).toBe(0);
    expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2);
  });

  it('deletes every object under a prefix across listing pages, and nothing else', async () => {
    fake.pageSize = 2;
    const s3 = store();
    for (const key of ['kyc/a1/front', 'kyc/a1/back', 'kyc/a1/selfie', 'kyc/a1/extra/one', 'kyc/a10/front', 'kyc/a1']) {
      await s3.put(key, Buffer.from(key), 'application/octet-stream');
    }

    await s3.deletePrefix('kyc/a1/');

    expect([...fake.objects.keys()].sort()).toEqual(['kyc/a1', 'kyc/a10/front']);
    const lists = fake.requests.filter((request) => request.method === 'GET');
    expect(lists).toHaveLength(2);
    expect(new URL(lists[0]?.url ?? '', 'http://x').searchParams.get('prefix')).toBe('kyc/a1/');
    expect(new URL(lists[1]?.url ?? '', 'http://x').searchParams.get('continuation-token')).toBe('kyc/a1/extra/one');

    await s3.deletePrefix('kyc/a1/');
    expect(fake.objects.size).toBe(2);
  });

  it('rejects when the bucket refuses, for every operation (a refused read is not a missing object)', async () => {
    fake.failWith = 403;
    const s3 = store();
    await expect(s3.put('kyc/s/doc', Buffer.from('x'), 'application/octet-stream')).rejects.toThrow(/Access Denied/);
    await expect(s3.get('kyc/s/doc')).rejects.toThrow(/Access Denied/);
    await expect(s3.delete('kyc/s/doc')).rejects.toThrow(/Access Denied/);
    await expect(s3.deletePrefix('kyc/s/')).rejects.toThrow(/Access Denied/);
  });

  it('refuses unsafe keys and prefixes without a request', async () => {
    const s3 = store();
    await expect(s3.put('../other/doc', Buffer.from('x'), 'application/octet-stream')).rejects.toThrow(/unsafe/);
    await expect(s3.delete('kyc/../../doc')).rejects.toThrow(/unsafe/);
    expect(await s3.get('/etc/passwd')).toBeNull();
    for (const prefix of ['', '/', 'kyc', 'kyc/../', '../']) {
      await expect(s3.deletePrefix(prefix)).rejects.toThrow(/unsafe/);
    }
    expect(fake.requests).toHaveLength(0);
  });
});
