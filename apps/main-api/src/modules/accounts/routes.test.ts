import { avatarUploads, users } from '@platform/db/schema';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { authHeader, createTestApp, insertUser, type TestApp, tokenFor } from '../../../test/helpers.js';

const USER = 'user_accounts_a';
const OTHER = 'user_accounts_b';
const NO_PROFILE = 'user_without_profile';
const FIXED_NOW = new Date('2024-06-15T12:00:00.000Z');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => FIXED_NOW } });
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await t.db.delete(users);
  await insertUser(t.db, {
    id: USER,
    email: 'amina@example.com',
    firstName: 'Amina',
    lastName: 'Wanjiku',
    phone: '+254712345678',
    dob: '1992-04-18',
    kycStatus: 'pending',
    updatedAt: new Date('2024-01-01T00:00:00.000Z'),
  });
  await insertUser(t.db, { id: OTHER, email: 'other@example.com' });
});

async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function patchMe(userId: string, payload: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: '/v1/accounts/me',
    headers: { ...(await authHeader(userId)), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

describe('GET /v1/accounts/me', () => {
  it('returns the profile with the full name', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(USER) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        name: 'Amina Wanjiku',
        email: 'amina@example.com',
        phone: '+254712345678',
        dob: '1992-04-18',
        kycStatus: 'pending',
      },
    });
  });

  it('omits the optional fields that are not set', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(OTHER) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { email: 'other@example.com', kycStatus: 'unverified' } });
  });

  it('uses the one name part that is set', async () => {
    await t.db.update(users).set({ lastName: 'Otieno' }).where(eq(users.id, OTHER));
    const response = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(OTHER) });
    expect(response.json().data.name).toBe('Otieno');
  });

  it('answers 404 "Profile not found" for a token whose user has no record', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts/me',
      headers: await authHeader(NO_PROFILE),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: 'Profile not found', code: 'not_found' });
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/accounts/me' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
  });
});

async function createProfile(userId: string, payload: unknown, email: string | null = `${userId}@example.com`) {
  const token = await tokenFor(userId, email === null ? {} : { email });
  return t.app.inject({
    method: 'POST',
    url: '/v1/accounts',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

describe('POST /v1/accounts', () => {
  it("creates the profile with the token's email address and answers it as GET /v1/accounts/me does", async () => {
    const response = await createProfile(NO_PROFILE, {
      firstName: ' Njeri ',
      lastName: 'Kamau',
      phone: '0722 000 111',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      success: true,
      data: {
        name: 'Njeri Kamau',
        email: `${NO_PROFILE}@example.com`,
        phone: '+254722000111',
        kycStatus: 'unverified',
      },
    });
    const me = await t.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(NO_PROFILE) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(response.json());
    expect(await userRow(NO_PROFILE)).toMatchObject({ firstName: 'Njeri', lastName: 'Kamau', kycStatus: 'unverified' });
  });

  it('answers 400 "The access token carries no email address" for a token without one, creating nothing', async () => {
    const response = await createProfile(NO_PROFILE, { firstName: 'Njeri', lastName: 'Kamau' }, null);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: 'The access token carries no email address',
    });
    expect(await userRow(NO_PROFILE)).toBeUndefined();
  });

  it('refuses an email address in the body as an unknown field', async () => {
    const response = await createProfile(NO_PROFILE, {
      firstName: 'Njeri',
      lastName: 'Kamau',
      email: 'someone-else@example.com',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(await userRow(NO_PROFILE)).toBeUndefined();
  });

  it.each([
    ['no lastName', { firstName: 'Njeri' }, undefined],
    ['no firstName', { lastName: 'Kamau' }, undefined],
    ['a blank firstName', { firstName: '  ', lastName: 'Kamau' }, '/firstName'],
    ['a 101-character lastName', { firstName: 'Njeri', lastName: 'x'.repeat(101) }, '/lastName'],
    ['an invalid phone number', { firstName: 'Njeri', lastName: 'Kamau', phone: '12345' }, '/phone'],
    ['a dob (not part of the creation)', { firstName: 'Njeri', lastName: 'Kamau', dob: '1990-01-01' }, undefined],
    ['a number as firstName', { firstName: 5, lastName: 'Kamau' }, undefined],
  ])('answers 400 for %s, creating nothing', async (_label, body, path) => {
    const response = await createProfile(NO_PROFILE, body);
    expect(response.statusCode).toBe(400);
    const envelope = response.json();
    expect(envelope).toMatchObject({ success: false, code: 'validation_error' });
    if (path !== undefined) {
      expect(envelope.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    }
    expect(await userRow(NO_PROFILE)).toBeUndefined();
  });

  it('answers 409 "Profile already exists" for a user who has one, changing nothing', async () => {
    const before = await userRow(USER);
    const response = await createProfile(USER, { firstName: 'Someone', lastName: 'Else' }, 'amina@example.com');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'conflict', error: 'Profile already exists' });
    expect(await userRow(USER)).toEqual(before);
  });

  it("answers 409 when another profile has the token's email address", async () => {
    const response = await createProfile(NO_PROFILE, { firstName: 'Njeri', lastName: 'Kamau' }, 'amina@example.com');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'conflict' });
    expect(await userRow(NO_PROFILE)).toBeUndefined();
  });

  it("answers 409 when another profile has the token's email address in another case", async () => {
    const response = await createProfile(NO_PROFILE, { firstName: 'Njeri', lastName: 'Kamau' }, 'AMINA@Example.COM');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'conflict' });
    expect(await userRow(NO_PROFILE)).toBeUndefined();
    expect((await userRow(USER))?.email).toBe('amina@example.com');
  });
});

// Two connections insert at once: PGlite runs one query at a time, so this runs on PostgreSQL only.
describe.skipIf(missing(postgresServer))('POST /v1/accounts at once (PostgreSQL)', () => {
  it('creates one profile for two simultaneous requests and answers the other 409', async () => {
    const responses = await Promise.all(
      ['Njeri', 'Wairimu'].map((firstName) => createProfile(NO_PROFILE, { firstName, lastName: 'Kamau' })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const conflictAnswer = responses.find((response) => response.statusCode === 409);
    expect(conflictAnswer?.json()).toMatchObject({ error: 'Profile already exists' });
    const created = responses.find((response) => response.statusCode === 201);
    expect((await userRow(NO_PROFILE))?.firstName).toBe(created?.json().data.name.split(' ')[0]);
  });

  it('creates one of several accounts signing up at once with one address in different cases; the others get 409', async () => {
    const spellings = ['X@Probe.Test', 'x@probe.test', 'X@PROBE.TEST', 'x@Probe.test', 'x@probe.TEST', 'X@probe.Test'];
    const responses = await Promise.all(
      spellings.map((email, index) =>
        createProfile(`user_signup_case_${index}`, { firstName: 'Njeri', lastName: 'Kamau' }, email),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((response) => response.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ success: false, code: 'conflict' });
    }
    const created = await t.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = 'x@probe.test'`);
    expect(created).toHaveLength(1);
    const winner = responses.findIndex((response) => response.statusCode === 201);
    expect(created[0]).toEqual({ id: `user_signup_case_${winner}`, email: spellings[winner] });
  });
});

describe('PATCH /v1/accounts/me', () => {
  it('updates the given fields, normalises them and touches updatedAt', async () => {
    const response = await patchMe(USER, {
      firstName: '  Wanjiru ',
      phone: '0722 000 111',
      dob: '1990-02-28',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Profile updated' });

    const row = await userRow(USER);
    expect(row).toMatchObject({
      firstName: 'Wanjiru',
      lastName: 'Wanjiku',
      phone: '+254722000111',
      dob: '1990-02-28',
      email: 'amina@example.com',
      kycStatus: 'pending',
    });
    expect(row?.updatedAt.toISOString()).toBe(FIXED_NOW.toISOString());
  });

  it('takes the date part of an ISO date-time', async () => {
    const response = await patchMe(USER, { dob: '1985-12-31T00:00:00.000+03:00' });
    expect(response.statusCode).toBe(200);
    expect((await userRow(USER))?.dob).toBe('1985-12-31');
  });

  it('ignores email, kycStatus and unknown fields next to a recognised one', async () => {
    const response = await patchMe(USER, {
      lastName: 'Kamau',
      email: 'hijack@example.com',
      kycStatus: 'verified',
      isAdmin: true,
    });
    expect(response.statusCode).toBe(200);
    const row = await userRow(USER);
    expect(row).toMatchObject({ lastName: 'Kamau', email: 'amina@example.com', kycStatus: 'pending' });
  });

  it.each([
    ['an empty object', {}],
    ['only unknown fields', { nickname: 'Ami' }],
    ['only email and kycStatus', { email: 'new@example.com', kycStatus: 'verified' }],
  ])('answers 400 "No valid fields provided for update" for %s, changing nothing', async (_label, body) => {
    const before = await userRow(USER);
    const response = await patchMe(USER, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      error: 'No valid fields provided for update',
      code: 'validation_error',
    });
    expect(await userRow(USER)).toEqual(before);
  });

  it.each([
    ['a number as firstName', { firstName: 5 }, '/firstName'],
    ['null as phone', { phone: null }, '/phone'],
    ['a blank firstName', { firstName: '   ' }, '/firstName'],
    ['a 101-character lastName', { lastName: 'x'.repeat(101) }, '/lastName'],
    ['a control character in a name', { firstName: 'Am\u0000ina' }, '/firstName'],
    ['an invalid phone number', { phone: '12345' }, '/phone'],
    ['a day that does not exist', { dob: '2023-02-30' }, '/dob'],
    ['a date in the future', { dob: '2024-06-16' }, '/dob'],
    ['a date before 1900', { dob: '1899-12-31' }, '/dob'],
    ['a non-ISO date', { dob: '03/04/1990' }, '/dob'],
    ['a date-time at hour 24', { dob: '2020-03-01T24:00:00Z' }, '/dob'],
    ['something that is not a date', { dob: 'yesterday' }, '/dob'],
    ['an avatarUrl that is not a URL', { avatarUrl: 'not a url' }, '/avatarUrl'],
    ['an avatarUrl this service never issued', { avatarUrl: 'https://cdn.example.com/a.png' }, '/avatarUrl'],
  ])('answers 400 with details for %s, changing nothing', async (_label, body, path) => {
    const before = await userRow(USER);
    const response = await patchMe(USER, { lastName: 'Kamau', ...body });
    expect(response.statusCode).toBe(400);
    const envelope = response.json();
    expect(envelope).toMatchObject({ success: false, code: 'validation_error' });
    expect(envelope.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(await userRow(USER)).toEqual(before);
  });

  it('accepts a birthday of today', async () => {
    const response = await patchMe(USER, { dob: '2024-06-15' });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['an array', '[{"firstName":"A"}]'],
    ['a string', '"firstName"'],
    ['null', 'null'],
  ])('answers 400 when the body is %s', async (_label, payload) => {
    const before = await userRow(USER);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/v1/accounts/me',
      headers: { ...(await authHeader(USER)), 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(await userRow(USER)).toEqual(before);
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/v1/accounts/me',
      headers: { ...(await authHeader(USER)), 'content-type': 'application/json' },
      payload: '{"firstName": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'invalid_json' });
  });

  it('answers 404 "Profile not found" for a token whose user has no record', async () => {
    const response = await patchMe(NO_PROFILE, { firstName: 'Ghost' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: 'Profile not found', code: 'not_found' });
    expect(await userRow(NO_PROFILE)).toBeUndefined();
  });

  it("refuses another user's avatar URL and accepts the user's own", async () => {
    const url = `${t.config.publicUrl}/v1/files/avatars/${OTHER}/0b8c7f38-8a53-4d0e-9d0a-2b7f6f0e9d11.png`;
    await t.db.insert(avatarUploads).values({
      userId: OTHER,
      storageKey: `avatars/${OTHER}/0b8c7f38-8a53-4d0e-9d0a-2b7f6f0e9d11.png`,
      url,
      contentType: 'image/png',
      sizeBytes: 10,
    });

    const refused = await patchMe(USER, { avatarUrl: url });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([expect.objectContaining({ path: '/avatarUrl' })]);
    expect((await userRow(USER))?.avatarUrl).toBeNull();

    const accepted = await patchMe(OTHER, { avatarUrl: url });
    expect(accepted.statusCode).toBe(200);
    expect((await userRow(OTHER))?.avatarUrl).toBe(url);
  });
});

describe('when the database fails', () => {
  it('answers 500 "Failed to fetch/update profile" on GET and PATCH without internals', async () => {
    const broken = await createTestApp();
    await insertUser(broken.db, { id: USER });
    await broken.database.close();
    try {
      const get = await broken.app.inject({ method: 'GET', url: '/v1/accounts/me', headers: await authHeader(USER) });
      expect(get.statusCode).toBe(500);
      expect(get.json()).toEqual({
        success: false,
        error: 'Failed to fetch/update profile',
        code: 'internal_error',
        requestId: expect.any(String),
      });

      const patch = await broken.app.inject({
        method: 'PATCH',
        url: '/v1/accounts/me',
        headers: { ...(await authHeader(USER)), 'content-type': 'application/json' },
        payload: { firstName: 'Amina' },
      });
      expect(patch.statusCode).toBe(500);
      expect(patch.json()).toMatchObject({ error: 'Failed to fetch/update profile', code: 'internal_error' });
    } finally {
      await broken.close();
    }
  });
});
