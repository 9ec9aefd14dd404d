import { findActiveApiKey } from '@platform/api-keys';
import { apiKeys } from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import { BOB, UNKNOWN_ID, useApiKeysApp } from '../../../test/api-key-fixtures.js';

const setup = useApiKeysApp();
const { create, list, revoke, seedKeys, keyRow } = setup;

describe('isolation between organizations', () => {
  it("gives a member of B the 403 under A's id and never A's keys under B's id", async () => {
    const { data: aliceKey } = (await create({ environment: 'live' })).json();
    await seedKeys([{ organizationId: setup.orgB, minute: 1 }]);

    for (const response of [await list('', BOB, setup.orgA), await revoke(aliceKey.id, BOB, setup.orgA)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden', error: 'You are not a member of this organization' });
    }

    const bobsList = (await list('?includeRevoked=true', BOB, setup.orgB)).json().data.apiKeys;
    expect(bobsList.map((key: { name: string }) => key.name)).toEqual(['Key 1']);

    const crossRevoke = await revoke(aliceKey.id, BOB, setup.orgB);
    expect(crossRevoke.statusCode).toBe(404);
    const unknown = await revoke(UNKNOWN_ID, BOB, setup.orgB);
    const { requestId: _a, ...crossBody } = crossRevoke.json();
    const { requestId: _b, ...unknownBody } = unknown.json();
    expect(crossBody).toEqual(unknownBody);

    expect(await findActiveApiKey(setup.t.db, aliceKey.secret)).toMatchObject({
      id: aliceKey.id,
      organizationId: setup.orgA,
    });
    expect((await keyRow(aliceKey.id))?.revokedAt).toBeNull();
  });
});

describe('authentication', () => {
  it.each([
    ['POST', '/v1/api-keys'],
    ['GET', '/v1/api-keys'],
    ['DELETE', `/v1/api-keys/${UNKNOWN_ID}`],
  ] as const)('%s %s answers 401 without a token', async (method, url) => {
    const response = await setup.t.app.inject({
      method,
      url,
      headers: { 'x-organization-id': setup.orgA },
      ...(method === 'POST' ? { payload: { environment: 'live' } } : {}),
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
    expect(await setup.t.db.$count(apiKeys)).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents the routes, their schemas and the organization header', async () => {
    const document = (await setup.t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ApiKey', 'ApiKeyList', 'CreatedApiKey']),
    );
    const operations = [
      document.paths['/v1/api-keys'].post,
      document.paths['/v1/api-keys'].get,
      document.paths['/v1/api-keys/{id}'].delete,
    ];
    for (const operation of operations) {
      expect(operation.tags).toEqual(['api-keys']);
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'x-organization-id', required: true }),
      );
    }
    expect(document.paths['/v1/api-keys'].post.responses['201']).toBeDefined();
  });
});
