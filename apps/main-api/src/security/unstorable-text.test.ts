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

/** `{"<field>":"<bytes>"}` with bytes that are not UTF-8 in the string, as a broken client's encoder sends them. */
function notUtf8(field: string): Buffer {
  return Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
}

describe('a JSON body that is not UTF-8', () => {
  it.each([
    ['PATCH', '/v1/accounts/me', 'firstName'],
    ['POST', '/v1/organizations', 'name'],
    ['POST', '/v1/api-keys', 'name'],
  ] as const)('is a 400 invalid_json on %s %s, and changes nothing', async (method, url, field) => {
    const before = await tableChecksums(t.db);
    const response = await t.app.inject({
      method,
      url,
      headers: {
        ...(await authHeader(ALICE)),
        'x-organization-id': organizationId,
        'content-type': 'application/json',
      },
      payload: notUtf8(field),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'invalid_json',
      error: 'Request body is not valid UTF-8: send JSON encoded as UTF-8',
    });
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});

// Bidirectional embeddings, overrides and isolates, the line and paragraph separators, line breaks and tabs: none can
// be shown in a name on one line (docs/decisions.md#single-line-names).
const notOnOneLine = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2028',
  '\u2029',
  '\n',
  '\t',
  '\u0085',
];
const codePoint = (character: string) => `U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;

describe.each(notOnOneLine.map((character) => [codePoint(character), character]))(
  'a name with %s is refused with a 400 saying so, and changes nothing',
  (_label, character) => {
    const name = `Acme${character}Ltd`;
    it.each([
      ['PATCH', '/v1/accounts/me', { firstName: name }, '/firstName'],
      ['PATCH', '/v1/accounts/me', { lastName: name }, '/lastName'],
      ['POST', '/v1/accounts', { firstName: name, lastName: 'Wanjiru' }, '/firstName'],
      ['POST', '/v1/organizations', { name }, '/name'],
      ['PATCH', '/v1/organizations/:id', { name }, '/name'],
      ['POST', '/v1/api-keys', { environment: 'test', name }, '/name'],
    ] as const)('%s %s (%j)', async (method, url, body, path) => {
      const before = await tableChecksums(t.db);
      const response = await send(method, url.replace(':id', organizationId), body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'validation_error',
        details: [{ path, message: expect.stringMatching(/^must be one line of text, without control characters/) }],
      });
      expect(response.json().error).toMatch(new RegExp(`^${path.slice(1)} must be one line of text`));
      expect(await tableChecksums(t.db)).toEqual(before);
    });
  },
);

it('takes names in any script, with the marks right-to-left text uses', async () => {
  for (const firstName of ['Zoë', 'مريم', '\u200fمريم\u200f', 'Nyambura-O’Neil']) {
    const response = await send('PATCH', '/v1/accounts/me', { firstName });
    expect(response.statusCode, response.body).toBe(200);
  }
});
