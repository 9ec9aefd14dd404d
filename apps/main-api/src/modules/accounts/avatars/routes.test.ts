import { readdir } from 'node:fs/promises';
import { avatarUploads, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertUser, type TestApp } from '../../../../test/helpers.js';
import { type FilePart, multipart, tinyJpeg, tinyPng, tinyWebp } from '../../../../test/images.js';

const USER = 'user_avatar_a';
const OTHER = 'user_avatar_b';
const MAX_BYTES = 64 * 1024;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { AVATAR_MAX_BYTES: String(MAX_BYTES), BODY_LIMIT_BYTES: '4096' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(users);
  await insertUser(t.db, { id: USER });
  await insertUser(t.db, { id: OTHER });
});

async function upload(userId: string, parts: FilePart[]) {
  const { payload, headers } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/v1/auth/avatar',
    headers: { ...headers, ...(await authHeader(userId)) },
    payload,
  });
}

function image(data: Buffer, overrides: Partial<FilePart> = {}): FilePart {
  return { field: 'file', filename: 'me.png', contentType: 'image/png', data, ...overrides };
}

async function uploadsOf(userId: string) {
  return t.db.select().from(avatarUploads).where(eq(avatarUploads.userId, userId));
}

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(t.avatarDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('POST /v1/auth/avatar', () => {
  it.each([
    ['PNG', tinyPng(), 'image/png', 'png'],
    ['JPEG', tinyJpeg(), 'image/jpeg', 'jpg'],
    ['WebP', tinyWebp(), 'image/webp', 'webp'],
  ])('stores a %s by its content and serves it back', async (_label, bytes, contentType, extension) => {
    // The declared type and file name are deliberately wrong: only the bytes count.
    const response = await upload(USER, [
      image(bytes, { filename: 'upload.bin', contentType: 'application/octet-stream' }),
    ]);
    expect(response.statusCode).toBe(201);
    const { url } = response.json().data;
    expect(response.json()).toEqual({ success: true, data: { url } });
    expect(url).toMatch(new RegExp(`^${t.config.publicUrl}/v1/files/avatars/${USER}/[0-9a-f-]{36}\\.${extension}$`));

    const [row] = await uploadsOf(USER);
    expect(row).toMatchObject({ url, contentType, sizeBytes: bytes.length, storageKey: url.split('/v1/files/')[1] });

    const served = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe(contentType);
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it('accepts the file in a field named "avatar"', async () => {
    const response = await upload(USER, [image(tinyPng(), { field: 'avatar' })]);
    expect(response.statusCode).toBe(201);
  });

  it('accepts an image larger than the JSON body limit', async () => {
    const bytes = tinyPng(32 * 1024);
    expect(bytes.length).toBeGreaterThan(t.config.bodyLimitBytes);
    const response = await upload(USER, [image(bytes)]);
    expect(response.statusCode).toBe(201);
  });

  it('refuses a text file named .png with 415 and stores nothing', async () => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(Buffer.from('definitely not an image\n'.repeat(10)))]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ success: false, code: 'unsupported_media_type' });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('refuses a GIF, an image format it does not accept', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const response = await upload(USER, [image(gif, { filename: 'me.gif', contentType: 'image/gif' })]);
    expect(response.statusCode).toBe(415);
  });

  it('answers 413 for a file over the limit and stores nothing', async () => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, [image(tinyPng(MAX_BYTES))]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'payload_too_large',
      error: `The avatar must be at most ${MAX_BYTES} bytes`,
    });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('answers 400 naming the field when the file is in another field', async () => {
    const response = await upload(USER, [image(tinyPng(), { field: 'picture' })]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: '/picture', message: 'is not allowed' }],
    });
    expect(await uploadsOf(USER)).toEqual([]);
  });

  it.each([
    ['two files in "file"', [image(tinyPng()), image(tinyJpeg())]],
    ['a file in "file" and one in "avatar"', [image(tinyPng()), image(tinyPng(), { field: 'avatar' })]],
  ])('answers 413 for %s and stores nothing', async (_label, parts) => {
    const filesBefore = await storedFiles();
    const response = await upload(USER, parts);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: expect.stringContaining('one image') });
    expect(await uploadsOf(USER)).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it.each([
    ['after the file', [image(tinyPng()), { field: 'caption', data: Buffer.from('me') }]],
    ['before the file', [{ field: 'userId', data: Buffer.from('user_avatar_b') }, image(tinyPng())]],
  ] as const)('answers 400 naming a text field %s, and stores nothing', async (_label, parts) => {
    const response = await upload(USER, [...parts] as FilePart[]);
    expect(response.statusCode).toBe(400);
    const field = parts.find((part) => !('filename' in part))?.field;
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: `/${field}`, message: 'is not allowed' }],
    });
    expect(await uploadsOf(USER)).toEqual([]);
  });

  it('answers 400 for the "file" field sent as text', async () => {
    const response = await upload(USER, [{ field: 'file', data: Buffer.from('iVBORw0KGgo=') }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      details: [{ path: '/file', message: 'must be a file' }],
    });
  });

  it('answers 400 for an empty file', async () => {
    const response = await upload(USER, [image(Buffer.alloc(0))]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error' });
  });

  it.each([
    ['a body without parts', 'multipart/form-data; boundary=xyz'],
    ['a content type without boundary', 'multipart/form-data'],
  ])('answers 400 for a malformed multipart body: %s', async (_label, contentType) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: { ...(await authHeader(USER)), 'content-type': contentType },
      payload: 'not multipart at all',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'bad_request' });
  });

  it('answers 415 for a JSON body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: { ...(await authHeader(USER)), 'content-type': 'application/json' },
      payload: { file: 'abc' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 401 without a token', async () => {
    const filesBefore = await storedFiles();
    const { payload, headers } = multipart([image(tinyPng())]);
    const response = await t.app.inject({ method: 'POST', url: '/v1/auth/avatar', headers, payload });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('answers 404 "Profile not found" for a user without a record', async () => {
    const response = await upload('user_avatar_ghost', [image(tinyPng())]);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Profile not found' });
  });

  it('lets the user set the issued URL as avatarUrl, and refuses it to another user', async () => {
    const { url } = (await upload(USER, [image(tinyPng())])).json().data;
    const patch = (userId: string) =>
      authHeader(userId).then((auth) =>
        t.app.inject({ method: 'PATCH', url: '/v1/accounts/me', headers: auth, payload: { avatarUrl: url } }),
      );

    const refused = await patch(OTHER);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/avatarUrl' }] });

    const accepted = await patch(USER);
    expect(accepted.statusCode).toBe(200);
    const profile = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(USER) });
    expect(profile.json().data.avatarUrl).toBe(url);
    const [other] = await t.db.select().from(users).where(eq(users.id, OTHER));
    expect(other?.avatarUrl).toBeNull();
  });
});

describe('GET /v1/files/*', () => {
  it.each([
    ['an unknown key', '/v1/files/avatars/user_x/6a0c7f3e-3a52-4f0e-9c1d-8d5f0b7e2a10.png'],
    ['a relative path', '/v1/files/../../package.json'],
    ['an encoded relative path', '/v1/files/avatars%2F..%2F..%2Fpackage.json'],
    ['a key outside the avatar layout', '/v1/files/secrets.txt'],
  ])('answers 404 for %s', async (_label, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('needs no token', async () => {
    const { url } = (await upload(USER, [image(tinyPng())])).json().data;
    const response = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
});
