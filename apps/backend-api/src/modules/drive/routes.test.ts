import { driveFolders, idempotencyRecords, organizations } from '@platform/db/schema';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, replaceOrganizations, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { countFolders, insertFolders, setMailPlan } from '../../../test/drive-fixtures.js';

describe('drive folders', () => {
  const suite = useTestApp();
  const { clock } = suite;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeEach(async () => {
    // Truncating first is much faster than letting the organizations take thousands of folders with them.
    await suite.db.execute(sql`truncate drive_folders, idempotency_records`);
    [acme, globex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
  });

  const create = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    suite.app.inject({
      method: 'POST',
      url: '/v1/drive/folders',
      headers: { 'x-service-api-key': key, ...headers },
      payload: body as object,
    });
  const list = (key: string, query = '') =>
    suite.app.inject({ method: 'GET', url: `/v1/drive/folders${query}`, headers: { 'x-service-api-key': key } });
  const remove = (key: string, id: string, headers: Record<string, string> = {}) =>
    suite.app.inject({
      method: 'DELETE',
      url: `/v1/drive/folders/${id}`,
      headers: { 'x-service-api-key': key, ...headers },
    });
  const createdId = async (key: string, body: unknown) => {
    const response = await create(key, body);
    expect(response.statusCode).toBe(201);
    return response.json().data.id as string;
  };

  describe('POST /v1/drive/folders', () => {
    it('creates a top-level folder with a trimmed name and answers 201', async () => {
      const response = await create(acme.liveKey, { name: '  Invoices 2026 ' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        success: true,
        message: 'Folder created',
        data: { id: expect.any(String), name: 'Invoices 2026', parentId: null, createdAt: clock.now().toISOString() },
      });
      const [row] = await suite.db.select().from(driveFolders);
      expect(row).toMatchObject({
        id: body.data.id,
        organizationId: acme.id,
        environment: 'live',
        name: 'Invoices 2026',
      });
    });

    it('nests folders through parentId', async () => {
      const parentId = await createdId(acme.liveKey, { name: 'Clients' });
      const child = await create(acme.liveKey, { name: 'Kamau Traders', parentId });
      expect(child.statusCode).toBe(201);
      expect(child.json().data.parentId).toBe(parentId);
      const grandchild = await create(acme.liveKey, { name: '2026', parentId: child.json().data.id });
      expect(grandchild.json().data.parentId).toBe(child.json().data.id);
      expect((await create(acme.liveKey, { name: 'Top', parentId: null })).json().data.parentId).toBeNull();
    });

    it('refuses a duplicate name under the same parent, ignoring case, and allows it elsewhere', async () => {
      const parentId = await createdId(acme.liveKey, { name: 'Clients' });
      await createdId(acme.liveKey, { name: 'Reports', parentId });

      const duplicate = await create(acme.liveKey, { name: 'reports', parentId });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({
        success: false,
        code: 'conflict',
        error: 'A folder named "reports" already exists in this folder',
      });
      const topLevelDuplicate = await create(acme.liveKey, { name: ' CLIENTS ' });
      expect(topLevelDuplicate.statusCode).toBe(409);
      expect(topLevelDuplicate.json().error).toContain('at the top level');

      expect((await create(acme.liveKey, { name: 'Reports' })).statusCode).toBe(201); // another parent
      expect((await create(acme.testKey, { name: 'Clients' })).statusCode).toBe(201); // another environment
      expect((await create(globex.liveKey, { name: 'Clients' })).statusCode).toBe(201); // another organization
    });

    it("answers 404 for a parent that is unknown, another organization's or another environment's", async () => {
      const globexFolder = await createdId(globex.liveKey, { name: 'Private' });
      const acmeTestFolder = await createdId(acme.testKey, { name: 'Sandbox' });
      for (const parentId of [globexFolder, acmeTestFolder, '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01']) {
        const response = await create(acme.liveKey, { name: 'Sub', parentId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'not_found', error: 'Parent folder not found' });
      }
      expect(await countFolders(suite.db, acme.id)).toBe(1);
    });

    it('needs an API key', async () => {
      const response = await suite.app.inject({ method: 'POST', url: '/v1/drive/folders', payload: { name: 'X' } });
      expect(response.statusCode).toBe(401);
      expect(await countFolders(suite.db)).toBe(0);
    });
  });

  describe('folder quota', () => {
    it.each([
      [
        'none',
        10,
        undefined,
        'Folder limit reached: without a mail plan an organization can have 10 folders. Subscribe to core for 100.',
      ],
      ['core', 100, 'core', 'Folder limit reached: the core plan allows 100 folders. Upgrade to growth for 1,000.'],
      [
        'growth',
        1_000,
        'growth',
        'Folder limit reached: the growth plan allows 1,000 folders. Upgrade to scale for 10,000.',
      ],
      [
        'scale',
        10_000,
        'scale',
        'Folder limit reached: the scale plan allows 10,000 folders. Contact support to raise the limit.',
      ],
    ] as const)(
      'on %s, allows %i folders, then answers 403 naming the limit and the upgrade',
      async (_tier, limit, plan, message) => {
        if (plan !== undefined) await setMailPlan(suite.db, acme.id, plan);
        await insertFolders(suite.db, acme.id, 'live', limit - 1);

        expect((await create(acme.liveKey, { name: 'The last one' })).statusCode).toBe(201);
        const over = await create(acme.liveKey, { name: 'One too many' });
        expect(over.statusCode).toBe(403);
        expect(over.json()).toMatchObject({ success: false, code: 'quota_exceeded', error: message });
        expect(await countFolders(suite.db, acme.id)).toBe(limit);
        // Each environment has its own quota.
        expect((await create(acme.testKey, { name: 'Test folder' })).statusCode).toBe(201);
      },
    );

    it('counts a past_due subscription and ignores a canceled or expired one', async () => {
      await insertFolders(suite.db, acme.id, 'live', 10);
      await setMailPlan(suite.db, acme.id, 'core', 'past_due');
      expect((await create(acme.liveKey, { name: 'Eleventh' })).statusCode).toBe(201);
      await setMailPlan(suite.db, acme.id, 'core', 'canceled');
      expect((await create(acme.liveKey, { name: 'Twelfth' })).json().code).toBe('quota_exceeded');
      await setMailPlan(suite.db, acme.id, 'scale', 'expired');
      expect((await create(acme.liveKey, { name: 'Twelfth' })).json().code).toBe('quota_exceeded');
    });

    it('uses the quotas from configuration', async () => {
      const small = await buildTestApp(suite.handle, { env: { FOLDER_QUOTA_NONE: '1', FOLDER_QUOTA_CORE: '2' } });
      try {
        const post = (name: string) =>
          small.inject({
            method: 'POST',
            url: '/v1/drive/folders',
            headers: { 'x-service-api-key': acme.liveKey },
            payload: { name },
          });
        expect((await post('One')).statusCode).toBe(201);
        expect((await post('Two')).json().error).toBe(
          'Folder limit reached: without a mail plan an organization can have 1 folder. Subscribe to core for 2.',
        );
      } finally {
        await small.close();
      }
    });
  });

  describe('GET /v1/drive/folders', () => {
    it("lists the key's organization and environment only, newest first", async () => {
      const first = await createdId(acme.liveKey, { name: 'First' });
      clock.advance(1000);
      const second = await createdId(acme.liveKey, { name: 'Second', parentId: first });
      await createdId(acme.testKey, { name: 'Test only' });
      await createdId(globex.liveKey, { name: 'Globex only' });

      const response = await list(acme.liveKey);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          folders: [
            { id: second, name: 'Second', parentId: first, createdAt: expect.any(String) },
            { id: first, name: 'First', parentId: null, createdAt: expect.any(String) },
          ],
          nextCursor: null,
        },
      });
      expect((await list(acme.testKey)).json().data.folders.map((folder: { name: string }) => folder.name)).toEqual([
        'Test only',
      ]);
    });

    it('filters by parent, or top-level folders with parentId=root', async () => {
      const parent = await createdId(acme.liveKey, { name: 'Parent' });
      await createdId(acme.liveKey, { name: 'Child', parentId: parent });
      const names = async (query: string) =>
        (await list(acme.liveKey, query)).json().data.folders.map((folder: { name: string }) => folder.name);
      expect(await names(`?parentId=${parent}`)).toEqual(['Child']);
      expect(await names('?parentId=root')).toEqual(['Parent']);

      const foreign = await createdId(globex.liveKey, { name: 'Foreign' });
      const response = await list(acme.liveKey, `?parentId=${foreign}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('Parent folder not found');
    });

    it('pages through every folder exactly once with the cursor (default 50 per page)', async () => {
      await setMailPlan(suite.db, acme.id, 'growth');
      await insertFolders(suite.db, acme.id, 'live', 120); // all at one instant: the id breaks the tie
      // Within one millisecond, a microsecond apart: a cursor of millisecond precision would skip or repeat them.
      for (const micros of ['000001', '000002', '000003']) {
        await suite.db.execute(sql`insert into drive_folders (organization_id, environment, name, created_at)
          values (${acme.id}, 'live', ${`Micro ${micros}`}, ${`2026-03-01T18:00:00.${micros}Z`}::timestamptz)`);
      }
      for (let index = 0; index < 3; index += 1) {
        clock.advance(1);
        await createdId(acme.liveKey, { name: `Made ${index}` });
      }

      const pageThrough = async (limit?: number) => {
        const seen: string[] = [];
        const sizes: number[] = [];
        let cursor: string | null = null;
        do {
          const query = new URLSearchParams();
          if (limit !== undefined) query.set('limit', String(limit));
          if (cursor !== null) query.set('cursor', cursor);
          const response = await list(acme.liveKey, `?${query.toString()}`);
          expect(response.statusCode).toBe(200);
          const { folders, nextCursor } = response.json().data as {
            folders: Array<{ name: string }>;
            nextCursor: string | null;
          };
          sizes.push(folders.length);
          seen.push(...folders.map((folder) => folder.name));
          cursor = nextCursor;
        } while (cursor !== null);
        return { seen, sizes };
      };

      const byDefault = await pageThrough();
      expect(byDefault.sizes).toEqual([50, 50, 26]);
      expect(new Set(byDefault.seen).size).toBe(126);
      expect(byDefault.seen.slice(0, 6)).toEqual([
        'Made 2',
        'Made 1',
        'Made 0',
        'Micro 000003',
        'Micro 000002',
        'Micro 000001',
      ]);

      const inPairs = await pageThrough(2);
      expect(inPairs.sizes).toHaveLength(63);
      expect(inPairs.seen).toEqual(byDefault.seen);
      expect((await list(acme.liveKey, '?limit=100')).json().data.folders).toHaveLength(100);
    });
  });

  describe('DELETE /v1/drive/folders/:id', () => {
    it('deletes an empty folder', async () => {
      const id = await createdId(acme.liveKey, { name: 'Old' });
      const response = await remove(acme.liveKey, id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: 'Folder deleted', data: { id } });
      expect(await countFolders(suite.db)).toBe(0);
    });

    it('refuses a folder with folders inside, until they are gone', async () => {
      const parent = await createdId(acme.liveKey, { name: 'Parent' });
      const child = await createdId(acme.liveKey, { name: 'Child', parentId: parent });
      const refused = await remove(acme.liveKey, parent);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'conflict',
        error: 'Folder is not empty: delete the folders inside it first',
      });
      expect((await remove(acme.liveKey, child)).statusCode).toBe(200);
      expect((await remove(acme.liveKey, parent)).statusCode).toBe(200);
    });

    it("answers the same 404 for an unknown folder and another organization's or environment's", async () => {
      const foreign = await createdId(globex.liveKey, { name: 'Foreign' });
      const testFolder = await createdId(acme.testKey, { name: 'Sandbox' });
      const answers = [];
      for (const id of [foreign, testFolder, '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01']) {
        const response = await remove(acme.liveKey, id);
        answers.push([response.statusCode, response.json().error]);
      }
      expect(answers).toEqual(Array(3).fill([404, 'Folder not found']));
      expect(await countFolders(suite.db)).toBe(2);
    });

    it("removes an organization's whole tree with the organization", async () => {
      const parent = await createdId(acme.liveKey, { name: 'Parent' });
      await createdId(acme.liveKey, { name: 'Child', parentId: parent });
      await suite.db.delete(organizations).where(eq(organizations.id, acme.id));
      expect(await countFolders(suite.db)).toBe(0);
    });
  });

  describe('bad input: 400 envelope and nothing written', () => {
    const ONE_LINE =
      'must be one line of text, without control characters, line or paragraph separators (U+2028, U+2029) or ' +
      'bidirectional controls (U+202A-U+202E, U+2066-U+2069)';
    const snapshot = async () => [await countFolders(suite.db), await suite.db.$count(idempotencyRecords)];

    it.each([
      ['no name', {}, 'name is required'],
      ['a name that is not a string', { name: 42 }, `name ${ONE_LINE}`],
      ['an empty name', { name: '' }, 'name must not be empty'],
      ['a name of spaces', { name: '   ' }, 'name must not be empty'],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name must be at most 255 characters'],
      ['a name with a slash', { name: 'a/b' }, 'name must not contain "/"'],
      ['a name with a control character', { name: 'a\u0007b' }, `name ${ONE_LINE}`],
      ['a name with a newline inside', { name: 'a\nb' }, `name ${ONE_LINE}`],
      ['a name with a right-to-left override', { name: 'Invoices\u202efdp.exe' }, `name ${ONE_LINE}`],
      ['a name with a first-strong isolate', { name: 'a\u2068b' }, `name ${ONE_LINE}`],
      ['a name with a line separator', { name: 'a\u2028b' }, `name ${ONE_LINE}`],
      ['a name with a paragraph separator', { name: 'a\u2029b' }, `name ${ONE_LINE}`],
      ['a parentId that is not a UUID', { name: 'X', parentId: 'folder-1' }, 'parentId must be a UUID'],
      [
        'a parentId with a urn:uuid: prefix',
        { name: 'X', parentId: 'urn:uuid:00000000-0000-4000-8000-000000000000' },
        'parentId must be a UUID',
      ],
      ['a parentId that is a number', { name: 'X', parentId: 7 }, 'parentId must be a UUID or null'],
    ])('POST with %s', async (_label, body, error) => {
      const before = await snapshot();
      const response = await create(acme.liveKey, body, { 'x-idempotency-key': 'bad-input' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
      expect(response.json().error).toContain(error);
      expect(response.json().requestId).toBe(response.headers['x-request-id']);
      expect(await snapshot()).toEqual(before);
    });

    it('POST with a name of 255 characters (after trimming) is fine', async () => {
      expect((await create(acme.liveKey, { name: ` ${'é'.repeat(255)} ` })).statusCode).toBe(201);
    });

    it('POST with malformed JSON', async () => {
      const before = await snapshot();
      const response = await suite.app.inject({
        method: 'POST',
        url: '/v1/drive/folders',
        headers: { 'x-service-api-key': acme.liveKey, 'content-type': 'application/json' },
        payload: '{"name": "Unclosed',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'invalid_json' });
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['a limit above 100', '?limit=101'],
      ['a limit of 0', '?limit=0'],
      ['a limit that is not a number', '?limit=many'],
      ['a parentId that is not a UUID', '?parentId=top'],
      ['a cursor this API did not issue', '?cursor=bm90LWEtY3Vyc29y'],
    ])('GET with %s', async (_label, query) => {
      const response = await list(acme.liveKey, query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    });

    it('DELETE with an id that is not a UUID', async () => {
      await createdId(acme.liveKey, { name: 'Kept' });
      const before = await snapshot();
      const response = await remove(acme.liveKey, 'not-a-uuid', { 'x-idempotency-key': 'bad-delete' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'validation_error',
        error: 'id must be a UUID',
      });
      expect(await snapshot()).toEqual(before);
    });
  });

  it('documents the routes, their schemas and the idempotency key header', async () => {
    const document = (await suite.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const post = document.paths['/v1/drive/folders'].post;
    expect(post.parameters.map((parameter: { name: string }) => parameter.name)).toContain('x-idempotency-key');
    expect(post.responses['201'].content['application/json'].schema.$ref).toContain('DriveFolderCreated');
    expect(
      document.paths['/v1/drive/folders/{id}'].delete.parameters.map((parameter: { name: string }) => parameter.name),
    ).toContain('x-idempotency-key');
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['DriveFolder', 'DriveFolderList']),
    );
  });
});
