import { organizations, users } from '@platform/db/schema';
import { tableChecksums } from '@platform/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  authHeader,
  createTestApp,
  insertOrganization,
  insertUser,
  type TestApp,
  tokenFor,
} from '../../test/helpers.js';

const ALICE = 'user_unstorable_alice';
// What PostgreSQL cannot store as text: U+0000, and UTF-16 surrogates without their pair (sent as JSON escapes).
const unstorable = ['a\u0000b', '\ud800', 'x\udfff'] as const;

let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(organizations);
  await t.db.delete(users);
  await insertUser(t.db, { id: ALICE });
  organizationId = await insertOrganization(t.db, { name: 'Acme', members: [{ userId: ALICE, role: 'owner' }] });
});

async function send(method: 'PATCH' | 'PUT' | 'POST', url: string, body: object) {
  return t.app.inject({
    method,
    url,
    headers: { ...(await authHeader(ALICE)), 'x-organization-id': organizationId, 'content-type': 'application/json' },
    // JSON.stringify writes lone surrogates as \ud800 escapes, as a client's JSON encoder would.
    payload: JSON.stringify(body),
  });
}

async function expectRefused(
  response: Promise<{ statusCode: number; json(): unknown }>,
  path: string,
  before: Record<string, string>,
) {
  const answer = await response;
  expect(answer.statusCode).toBe(400);
  expect(answer.json()).toMatchObject({
    success: false,
    code: 'validation_error',
    // A single-line name refuses U+0000 as the control character it is, before the storable-text rule sees it.
    details: expect.arrayContaining([{ path, message: expect.stringMatching(/U\+0000|^must be one line of text/) }]),
  });
  expect(await tableChecksums(t.db)).toEqual(before);
}

describe.each(unstorable)('%j is refused with a 400 that changes nothing', (text) => {
  it.each(['firstName', 'lastName', 'avatarUrl'])('in the profile’s %s', async (field) => {
    const before = await tableChecksums(t.db);
    await expectRefused(send('PATCH', '/v1/accounts/me', { [field]: text }), `/${field}`, before);
  });

  it('in the default callback URL of a webhook endpoint', async () => {
    const before = await tableChecksums(t.db);
    await expectRefused(
      send('PUT', '/v1/webhooks/endpoints/test', { defaultUrl: `https://acme.example.com/${text}` }),
      '/defaultUrl',
      before,
    );
  });

  it('in an API key’s name', async () => {
    const before = await tableChecksums(t.db);
    await expectRefused(send('POST', '/v1/api-keys', { environment: 'test', name: text }), '/name', before);
  });
});

describe('a bearer token whose subject PostgreSQL cannot store', () => {
  it.each(['user\u0000x', '\ud800'])('%j is a 401, like any unusable token', async (subject) => {
    const before = await tableChecksums(t.db);
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: { authorization: `Bearer ${await tokenFor(subject)}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
    const notifications = await t.app.inject({
      method: 'PATCH',
      url: '/v1/notifications/read-all',
      headers: { authorization: `Bearer ${await tokenFor(subject)}` },
    });
    expect(notifications.statusCode).toBe(401);
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
