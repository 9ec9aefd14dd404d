import { randomUUID } from 'node:crypto';
import { apiKeys } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import { answerOf } from '@platform/http/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, type TestOrganization, useTestApp } from '../../test/app-fixtures.js';
import { pngImage, uploadDocument } from '../../test/document-fixtures.js';
import { createdSessionId, fundWallet } from '../../test/verification-fixtures.js';
import type { BackendApp } from '../app.js';
import { API_KEY_HEADER } from '../plugins/api-key-authentication.js';

// OWASP API1 (object level authorization), for every backend-api route that takes an id: another
// organization's object, or the key's own organization's object in the other environment, gets exactly the
// answer of a random id that does not exist (status and body, all but the request id), and nothing is stored
// or changed. The owner's own request then succeeds, so the id was real and the route works.
// The hosted page (/session/:id) is left out: it is public, and its unguessable id is the credential; so is Smile
// ID's callback, which names no id of ours in its path. A last test holds the table to every route with an id.

type Send = (app: BackendApp, key: string, id: string) => Promise<{ statusCode: number; body: string }>;

interface IdRoute {
  name: string;
  /** What the id names: a session or a folder of Acme's live environment, or a session of its test environment. */
  object: 'session' | 'test_session' | 'folder';
  send: Send;
  /** The owner's answer to the same request. */
  ownerStatus: number;
  /**
   * The answer to the owner's key of the other environment, for an unknown id and the owner's alike: 404, but 403
   * where the credential itself may not do this (a live key deciding a test session: docs/decisions.md#test-decisions).
   */
  otherEnvironmentStatus?: number;
}

const sessionRoute = (method: 'GET' | 'POST' | 'DELETE', path: string, ownerStatus: number, payload?: object) => ({
  name: `${method} /v1/verify/sessions/:id${path}`,
  object: 'session' as const,
  send: ((app, key, id) =>
    app.inject({
      method,
      url: `/v1/verify/sessions/${id}${path}`,
      headers: { [API_KEY_HEADER]: key },
      ...(payload === undefined ? {} : { payload }),
    })) satisfies Send,
  ownerStatus,
});

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
  // The documents' routes: a pending session takes an upload (201) and lists what it has; a submission without
  // documents is refused as incomplete (400), and a pending session's data cannot be erased yet (409).
  {
    name: 'POST /v1/verify/sessions/:id/documents',
    object: 'session',
    send: async (app, key, id) => uploadDocument(app, key, id, 'selfie', await pngImage(600, 800, 'Selfie')),
    ownerStatus: 201,
  },
  sessionRoute('GET', '/documents', 200),
  sessionRoute('POST', '/submit', 400, { idType: 'national_id', idNumber: '27183945' }),
  sessionRoute('DELETE', '/personal-data', 409),
  // Every key here holds verified_data:read (granted below), so a pending session's export is refused as not final.
  sessionRoute('GET', '/export', 409),
  {
    name: 'POST /v1/verify/sessions/:id/test-decision',
    object: 'test_session',
    send: (app, key, id) =>
      app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/test-decision`,
        headers: { [API_KEY_HEADER]: key },
        payload: { status: 'processing' },
      }),
    ownerStatus: 200,
    otherEnvironmentStatus: 403,
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
    await suite.db.update(apiKeys).set({ permissions: ['verified_data:read'] });
    // Each key's first use records when it was used, after the answer; make it now and wait for the writes, so
    // the requests under test find it set (the suite's clock stands still, so it is not written again).
    for (const key of [acme.liveKey, acme.testKey, globex.liveKey, globex.testKey]) {
      expect(
        (await suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { [API_KEY_HEADER]: key } })).statusCode,
      ).toBe(200);
    }
    await suite.app.apiKeyUsage.flush();
  });

  async function acmeObject(object: IdRoute['object']): Promise<string> {
    if (object === 'session') return createdSessionId(suite.app, acme.liveKey);
    if (object === 'test_session') return createdSessionId(suite.app, acme.testKey);
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
      const live = route.object !== 'test_session';
      for (const [caller, key, status] of [
        ['another organization', live ? globex.liveKey : globex.testKey, 404],
        [
          "the same organization's other environment",
          live ? acme.testKey : acme.liveKey,
          route.otherEnvironmentStatus ?? 404,
        ],
      ] as const) {
        const unknown = answerOf(await route.send(suite.app, key, randomUUID()));
        expect(unknown.status, caller).toBe(status);
        expect(answerOf(await route.send(suite.app, key, id)), caller).toEqual(unknown);
      }
      expect(await tableChecksums(suite.db)).toEqual(before);

      const owner = live ? acme.liveKey : acme.testKey;
      expect((await route.send(suite.app, owner, id)).statusCode).toBe(route.ownerStatus);
    },
  );

  it('walks every route of the API that takes an id', () => {
    const walked = new Set(routes.map((route) => route.name.replace(/\?.*$/, '').replace(/ with .*$/, '')));
    const withId = suite.app.registeredRoutes
      .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/v1/') && route.url.includes('/:'))
      .map((route) => `${route.method} ${route.url}`);
    expect(withId.length).toBeGreaterThan(0);
    expect(withId.filter((route) => !walked.has(route))).toEqual([]);
  });
});
