import { randomUUID } from 'node:crypto';
import { tableChecksums } from '@platform/db/testing';
import { answerOf } from '@platform/http/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, type TestOrganization, useTestApp } from '../../test/app-fixtures.js';
import { createdSessionId, fundWallet } from '../../test/verification-fixtures.js';
import type { BackendApp } from '../app.js';
import { API_KEY_HEADER } from '../plugins/api-key-authentication.js';

// OWASP API1 (object level authorization), for every backend-api route that takes an id: another
// organization's object, or the key's own organization's object in the other environment, gets exactly the
// answer of a random id that does not exist (status and body, all but the request id), and nothing is stored
// or changed. The owner's own request then succeeds, so the id was real and the route works.
// The hosted page (/session/:id) is left out: it is public, and its unguessable id is the credential.

type Send = (app: BackendApp, key: string, id: string) => Promise<{ statusCode: number; body: string }>;

interface IdRoute {
  name: string;
  /** What the id names: a session or a folder of Acme's live environment. */
  object: 'session' | 'folder';
  send: Send;
  /** The owner's answer to the same request. */
  ownerStatus: number;
}

const routes: IdRoute[] = [
  {
    name: 'GET /v1/verify/sessions/:id',
    object: 'session',
    send: (app, key, id) =>
      app.inject({ method: 'GET', url: `/v1/verify/sessions/${id}`, headers: { [API_KEY_HEADER]: key } }),
    ownerStatus: 200,
  },
  {
    name: 'POST /v1/verify/sessions/:id/cancel',
    object: 'session',
    send: (app, key, id) =>
      app.inject({ method: 'POST', url: `/v1/verify/sessions/${id}/cancel`, headers: { [API_KEY_HEADER]: key } }),
    ownerStatus: 200,
  },
  {
    name: 'DELETE /v1/drive/folders/:id',
    object: 'folder',
    send: (app, key, id) =>
      app.inject({ method: 'DELETE', url: `/v1/drive/folders/${id}`, headers: { [API_KEY_HEADER]: key } }),
    ownerStatus: 200,
  },
  {
    name: 'GET /v1/drive/folders?parentId=:id',
    object: 'folder',
    send: (app, key, id) =>
      app.inject({ method: 'GET', url: `/v1/drive/folders?parentId=${id}`, headers: { [API_KEY_HEADER]: key } }),
    ownerStatus: 200,
  },
  {
    name: 'POST /v1/drive/folders with parentId',
    object: 'folder',
    send: (app, key, id) =>
      app.inject({
        method: 'POST',
        url: '/v1/drive/folders',
        headers: { [API_KEY_HEADER]: key },
        payload: { name: 'Inside', parentId: id },
      }),
    ownerStatus: 201,
  },
];

describe('object level authorization (backend-api)', () => {
  const suite = useTestApp();
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    acme = await createTestOrganization(suite.db, 'Acme');
    globex = await createTestOrganization(suite.db, 'Globex');
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    // Each key's first use records when it was used, after the answer; make it now and wait for the writes, so
    // the requests under test find it set (the suite's clock stands still, so it is not written again).
    for (const key of [acme.liveKey, acme.testKey, globex.liveKey]) {
      expect(
        (await suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { [API_KEY_HEADER]: key } })).statusCode,
      ).toBe(200);
    }
    await suite.app.apiKeyUsage.flush();
  });

  async function acmeObject(object: IdRoute['object']): Promise<string> {
    if (object === 'session') return createdSessionId(suite.app, acme.liveKey);
    const created = await suite.app.inject({
      method: 'POST',
      url: '/v1/drive/folders',
      headers: { [API_KEY_HEADER]: acme.liveKey },
      payload: { name: `Folder ${randomUUID()}` },
    });
    expect(created.statusCode).toBe(201);
    return (created.json() as { data: { id: string } }).data.id;
  }

  it.each(routes.map((route) => [route.name, route] as const))(
    "%s: answers another organization's or environment's id as an unknown one, and changes nothing",
    async (_name, route) => {
      const id = await acmeObject(route.object);
      const before = await tableChecksums(suite.db);
      for (const [caller, key] of [
        ['another organization', globex.liveKey],
        ['the same organization in the test environment', acme.testKey],
      ] as const) {
        const unknown = answerOf(await route.send(suite.app, key, randomUUID()));
        expect(unknown.status, caller).toBe(404);
        expect(answerOf(await route.send(suite.app, key, id)), caller).toEqual(unknown);
      }
      expect(await tableChecksums(suite.db)).toEqual(before);

      expect((await route.send(suite.app, acme.liveKey, id)).statusCode).toBe(route.ownerStatus);
    },
  );
});
