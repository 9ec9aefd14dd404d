import { createApiKey } from '@platform/api-keys';
import { idempotencyRecords } from '@platform/db/schema';
import { requestFingerprint } from '@platform/idempotency';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../test/app-fixtures.js';
import { countFolders, insertFolders, setMailPlan } from '../../../test/drive-fixtures.js';
import type { BackendApp } from '../../app.js';

const SECOND = 1000;

describe('idempotent retries of drive folder requests', () => {
  const database = useTestDatabase({ maxConnections: 10 });
  let app: BackendApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let clock: ReturnType<typeof testClock>;

  beforeEach(async () => {
    await database.db.execute(sql`truncate drive_folders, idempotency_records`);
    [acme, globex] = await replaceOrganizations(database.db, 'Acme', 'Globex');
    clock = testClock();
    app = await buildTestApp(database.handle, { now: clock.now });
  });
  afterEach(async () => {
    await app.close();
  });

  const create = (key: string, body: unknown, idempotencyKey?: string, on: BackendApp = app) =>
    on.inject({
      method: 'POST',
      url: '/v1/drive/folders',
      headers: {
        'x-service-api-key': key,
        ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
      },
      payload: body as object,
    });
  const remove = (key: string, id: string, idempotencyKey: string) =>
    app.inject({
      method: 'DELETE',
      url: `/v1/drive/folders/${id}`,
      headers: { 'x-service-api-key': key, 'x-idempotency-key': idempotencyKey },
    });
  const storedRecords = () => database.db.$count(idempotencyRecords);

  it('replays a create without creating again, also after the app restarts', async () => {
    const first = await create(acme.liveKey, { name: 'Invoices' }, 'create-invoices');
    expect(first.statusCode).toBe(201);

    const retry = await create(acme.liveKey, { name: 'Invoices' }, 'create-invoices');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);

    await app.close();
    clock.advance(23 * 60 * 60 * SECOND);
    app = await buildTestApp(database.handle, { now: clock.now });
    const afterRestart = await create(acme.liveKey, { name: 'Invoices' }, 'create-invoices');
    expect(afterRestart.statusCode).toBe(201);
    expect(afterRestart.headers['idempotent-replayed']).toBe('true');
    expect(afterRestart.body).toBe(first.body);
    expect(await countFolders(database.db)).toBe(1);
  });

  it('keeps the same key of two API keys apart', async () => {
    for (const key of [acme.liveKey, acme.testKey, globex.liveKey]) {
      const response = await create(key, { name: 'Invoices' }, 'shared-key');
      expect(response.statusCode).toBe(201);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await countFolders(database.db)).toBe(3);
  });

  it('runs the request again for a second key of the same organization and environment', async () => {
    // Same organization, same environment, same idempotency key and body: only the API key differs. A scope of
    // organization + environment would replay the first 201 here; the scope is the API key, so it runs again
    // and meets the folder the first key made.
    const secondLiveKey = (await createApiKey(database.db, { organizationId: acme.id, environment: 'live' })).secret;
    const first = await create(acme.liveKey, { name: 'Invoices' }, 'same-key');
    expect(first.statusCode).toBe(201);

    const second = await create(secondLiveKey, { name: 'Invoices' }, 'same-key');
    expect(second.statusCode).toBe(409);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json()).toMatchObject({ success: false, code: 'conflict' });
    expect(await countFolders(database.db, acme.id)).toBe(1);
    // Only the first key's answer is stored: a 409 frees the key.
    expect(await storedRecords()).toBe(1);
  });

  it('does not store a 409, so the key works once the duplicate is gone', async () => {
    const existing = (await create(acme.liveKey, { name: 'Reports' })).json().data.id as string;
    const refused = await create(acme.liveKey, { name: 'Reports' }, 'retry-after-fix');
    expect(refused.statusCode).toBe(409);
    expect(await storedRecords()).toBe(0);

    expect((await remove(acme.liveKey, existing, 'delete-reports')).statusCode).toBe(200);
    const retried = await create(acme.liveKey, { name: 'Reports' }, 'retry-after-fix');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not store a 403, so the key works once the plan allows more', async () => {
    await insertFolders(database.db, acme.id, 'live', 10);
    const refused = await create(acme.liveKey, { name: 'Eleventh' }, 'over-quota');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('quota_exceeded');

    await setMailPlan(database.db, acme.id, 'core');
    const retried = await create(acme.liveKey, { name: 'Eleventh' }, 'over-quota');
    expect(retried.statusCode).toBe(201);
    expect(await countFolders(database.db, acme.id)).toBe(11);
  });

  it('answers 422 when the key is reused for another request', async () => {
    await create(acme.liveKey, { name: 'Invoices' }, 'reused');
    const otherBody = await create(acme.liveKey, { name: 'Receipts' }, 'reused');
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ success: false, code: 'idempotency_key_reused' });
    const folder = (await create(acme.liveKey, { name: 'Old' })).json().data.id as string;
    expect((await remove(acme.liveKey, folder, 'reused')).statusCode).toBe(422);
    expect(await countFolders(database.db)).toBe(2);
  });

  it.each([
    ['256 characters long', 'k'.repeat(256)],
    ['containing a space', 'create invoices'],
    ['not ASCII', 'cr\u00e9er'],
  ])('refuses a key %s with 400 and writes nothing', async (_label, key) => {
    const response = await create(acme.liveKey, { name: 'Invoices' }, key);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(response.json().error).toContain('x-idempotency-key');
    expect(await countFolders(database.db)).toBe(0);
    expect(await storedRecords()).toBe(0);
  });

  it('accepts a key of 255 characters', async () => {
    expect((await create(acme.liveKey, { name: 'Invoices' }, 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('replays a delete instead of answering 404 the second time', async () => {
    const id = (await create(acme.liveKey, { name: 'Old' })).json().data.id as string;
    const first = await remove(acme.liveKey, id, 'delete-old');
    const retry = await remove(acme.liveKey, id, 'delete-old');
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });

  it('takes over a key whose request died once its lock is 60 seconds old', async () => {
    // What a request leaves behind when its process dies after claiming the key.
    const body = { name: 'Invoices' };
    await database.db.insert(idempotencyRecords).values({
      scope: `api_key:${acme.liveKeyId}`,
      key: 'orphaned',
      fingerprint: requestFingerprint({ method: 'POST', route: '/v1/drive/folders', params: {}, query: {}, body }),
      status: 'in_progress',
      lockedAt: clock.now(),
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 24 * 60 * 60 * SECOND),
    });

    clock.advance(59 * SECOND);
    const stillLocked = await create(acme.liveKey, body, 'orphaned');
    expect(stillLocked.statusCode).toBe(409);
    expect(stillLocked.json().code).toBe('idempotency_key_in_use');
    expect(stillLocked.headers['retry-after']).toBe('1');

    clock.advance(SECOND);
    const takenOver = await create(acme.liveKey, body, 'orphaned');
    expect(takenOver.statusCode).toBe(201);
    expect(takenOver.headers['idempotent-replayed']).toBeUndefined();
    const [record] = await database.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.key, 'orphaned'));
    expect(record).toMatchObject({ status: 'completed', responseStatus: 201, lockedAt: clock.now() });
    expect(await countFolders(database.db)).toBe(1);
  });

  it('commits the folder and the stored answer together', async () => {
    await create(acme.liveKey, { name: 'Invoices' }, 'together');
    const [record] = await database.db.select().from(idempotencyRecords);
    expect(record).toMatchObject({
      scope: `api_key:${acme.liveKeyId}`,
      key: 'together',
      status: 'completed',
      responseStatus: 201,
    });
    expect(record?.responseBody).toMatchObject({ success: true, data: { name: 'Invoices' } });
  });

  describe.skipIf(missing(postgresServer))(
    'under concurrency (needs PostgreSQL: set DATABASE_URL; PGlite runs one statement at a time)',
    () => {
      it('20 concurrent requests with one key create exactly one folder; the rest are 409s or identical replays', async () => {
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => create(acme.liveKey, { name: 'Invoices' }, 'burst')),
        );
        expect(await countFolders(database.db)).toBe(1);

        const originals = responses.filter(
          (response) => response.statusCode === 201 && response.headers['idempotent-replayed'] === undefined,
        );
        expect(originals).toHaveLength(1);
        const original = originals[0]!;
        for (const response of responses) {
          if (response === original) continue;
          if (response.statusCode === 409) {
            expect(response.json().code).toBe('idempotency_key_in_use');
            expect(response.headers['retry-after']).toBe('1');
          } else {
            expect(response.statusCode).toBe(201);
            expect(response.headers['idempotent-replayed']).toBe('true');
            expect(response.body).toBe(original.body);
          }
        }
        const replay = await create(acme.liveKey, { name: 'Invoices' }, 'burst');
        expect(replay.body).toBe(original.body);
      });

      it('many requests taking over one abandoned key at once create exactly one folder', async () => {
        const body = { name: 'Invoices' };
        await database.db.insert(idempotencyRecords).values({
          scope: `api_key:${acme.liveKeyId}`,
          key: 'orphaned-burst',
          fingerprint: requestFingerprint({ method: 'POST', route: '/v1/drive/folders', params: {}, query: {}, body }),
          status: 'in_progress',
          lockedAt: clock.now(),
          createdAt: clock.now(),
          expiresAt: new Date(clock.now().getTime() + 24 * 60 * 60 * SECOND),
        });
        clock.advance(61 * SECOND);
        const responses = await Promise.all(
          Array.from({ length: 10 }, () => create(acme.liveKey, body, 'orphaned-burst')),
        );
        expect(await countFolders(database.db)).toBe(1);
        expect(
          responses.filter(
            (response) => response.statusCode === 201 && response.headers['idempotent-replayed'] === undefined,
          ),
        ).toHaveLength(1);
        expect(responses.every((response) => [201, 409].includes(response.statusCode))).toBe(true);
      });

      it('with 9 of 10 folders used, 5 concurrent creates give exactly one 201', async () => {
        await insertFolders(database.db, acme.id, 'live', 9);
        const responses = await Promise.all(
          Array.from({ length: 5 }, (_, index) => create(acme.liveKey, { name: `Folder ${index}` }, `quota-${index}`)),
        );
        const statuses = responses.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([201, 403, 403, 403, 403]);
        expect(await countFolders(database.db, acme.id)).toBe(10);
        expect(await storedRecords()).toBe(1);
      });

      it('concurrent creates of one name give one folder and 409s', async () => {
        const responses = await Promise.all(
          Array.from({ length: 8 }, (_, index) => create(acme.liveKey, { name: 'Invoices' }, `same-name-${index}`)),
        );
        const statuses = responses.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
        expect(await countFolders(database.db)).toBe(1);
      });

      it('a folder deleted while a subfolder is created either keeps the subfolder or refuses it', async () => {
        for (let round = 0; round < 5; round += 1) {
          const parent = (await create(acme.liveKey, { name: `Parent ${round}` })).json().data.id as string;
          const [child, deletion] = await Promise.all([
            create(acme.liveKey, { name: 'Child', parentId: parent }, `child-${round}`),
            remove(acme.liveKey, parent, `delete-${round}`),
          ]);
          // Never both: a deleted parent with a child left behind.
          expect([child.statusCode, deletion.statusCode].sort()).toSatisfy(
            (pair: number[]) => (pair[0] === 200 && pair[1] === 404) || (pair[0] === 201 && pair[1] === 409),
          );
        }
      });
    },
  );
});
