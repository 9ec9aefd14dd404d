import { allowedOrigins, auditEvents, organizations, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { ALLOWED_ORIGINS_UPDATED } from './routes.js';

const OWNER = 'user_origins_owner';
const DEVELOPER = 'user_origins_developer';
const BILLING = 'user_origins_billing';
const MEMBER = 'user_origins_member';
const OUTSIDER = 'user_origins_outsider';
const NOW = new Date('2026-03-02T09:00:00.000Z');

let t: TestApp;
let acme: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => NOW } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(organizations);
  await t.db.delete(users);
  for (const id of [OWNER, DEVELOPER, BILLING, MEMBER, OUTSIDER]) await insertUser(t.db, { id });
  acme = await insertOrganization(t.db, {
    name: 'Acme',
    members: [
      { userId: OWNER, role: 'owner' },
      { userId: DEVELOPER, role: 'developer' },
      { userId: BILLING, role: 'billing' },
      { userId: MEMBER, role: 'member' },
    ],
  });
  other = await insertOrganization(t.db, { name: 'Other', members: [{ userId: OUTSIDER, role: 'owner' }] });
});

async function list(userId = DEVELOPER, organizationId = acme) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/organizations/${organizationId}/allowed-origins`,
    headers: await authHeader(userId),
  });
}

async function put(environment: string, payload: unknown, userId = DEVELOPER, organizationId = acme) {
  return t.app.inject({
    method: 'PUT',
    url: `/v1/organizations/${organizationId}/allowed-origins/${environment}`,
    headers: await authHeader(userId),
    payload: payload as object,
  });
}

const storedRows = () => t.db.select().from(allowedOrigins).where(eq(allowedOrigins.organizationId, acme));

describe('GET /v1/organizations/:id/allowed-origins', () => {
  it('answers empty lists for both environments before any is set', async () => {
    const response = await list(MEMBER);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { live: [], test: [] } });
  });

  it('is the same 404 for an organization the caller is not in as for an unknown one', async () => {
    const notMine = await list(OUTSIDER, acme);
    const unknown = await list(OUTSIDER, crypto.randomUUID());
    expect(notMine.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(notMine.json().error).toBe(unknown.json().error);
  });
});

describe('PUT /v1/organizations/:id/allowed-origins/:environment', () => {
  it("replaces one environment's list, stored as browsers write origins, and records who did it", async () => {
    const response = await put('live', { origins: ['https://Shop.Example:443/', 'https://pay.shop.example:8443'] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: ALLOWED_ORIGINS_UPDATED,
      data: { environment: 'live', origins: ['https://shop.example', 'https://pay.shop.example:8443'] },
    });
    expect((await put('test', { origins: ['http://localhost:3000'] })).statusCode).toBe(200);
    expect((await list(MEMBER)).json().data).toEqual({
      live: ['https://shop.example', 'https://pay.shop.example:8443'],
      test: ['http://localhost:3000'],
    });

    // The whole list each time: a second PUT replaces the first, [] removes them all.
    expect((await put('live', { origins: ['https://new.example'] })).json().data.origins).toEqual([
      'https://new.example',
    ]);
    expect((await put('test', { origins: [] })).json().data).toEqual({ environment: 'test', origins: [] });
    expect((await list()).json().data).toEqual({ live: ['https://new.example'], test: [] });
    expect((await list(OUTSIDER, other)).json().data).toEqual({ live: [], test: [] });

    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, acme));
    expect(audit.map((event) => event.action)).toEqual(Array(4).fill('allowed_origins.updated'));
    expect(
      audit.map(({ actorUserId, targetType, targetId, details }) => ({ actorUserId, targetType, targetId, details })),
    ).toEqual(
      expect.arrayContaining([
        {
          actorUserId: DEVELOPER,
          targetType: 'allowed_origins',
          targetId: 'live',
          details: { environment: 'live', origins: ['https://shop.example', 'https://pay.shop.example:8443'] },
        },
        {
          actorUserId: DEVELOPER,
          targetType: 'allowed_origins',
          targetId: 'test',
          details: { environment: 'test', origins: [] },
        },
      ]),
    );
  });

  it('takes ten origins and refuses eleven', async () => {
    const ten = Array.from({ length: 10 }, (_, index) => `https://shop-${index}.example`);
    expect((await put('live', { origins: ten })).statusCode).toBe(200);
    const eleven = await put('live', { origins: [...ten, 'https://one-more.example'] });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/origins' }] });
    expect((await storedRows())[0]?.origins).toEqual(ten);
  });

  it('names every origin that is not one, and changes nothing', async () => {
    await put('live', { origins: ['https://shop.example'] });
    const response = await put('live', {
      origins: [
        'https://fine.example',
        'http://shop.example',
        'https://*.shop.example',
        'https://shop.example/checkout',
        'https://FINE.example/',
        'https://shop.example;script-src',
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error:
        'origins[1] must start with https:// (http:// only for localhost); origins[2] must name one origin: wildcards ' +
        'are not allowed; origins[3] must be an origin without a path, such as https://shop.example; origins[4] is ' +
        'listed twice; origins[5] must have a host name of letters, digits, hyphens and dots, or an IPv4 address',
      details: [
        { path: '/origins/1', message: 'must start with https:// (http:// only for localhost)' },
        { path: '/origins/2', message: 'must name one origin: wildcards are not allowed' },
        { path: '/origins/3', message: 'must be an origin without a path, such as https://shop.example' },
        { path: '/origins/4', message: 'is listed twice' },
        {
          path: '/origins/5',
          message: 'must have a host name of letters, digits, hyphens and dots, or an IPv4 address',
        },
      ],
    });
    expect((await list()).json().data).toEqual({ live: ['https://shop.example'], test: [] });
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, acme));
    expect(audit).toHaveLength(1);
  });

  it.each([
    ['no body', undefined],
    ['no origins', {}],
    ['a string instead of a list', { origins: 'https://shop.example' }],
    ['an empty origin', { origins: [''] }],
    ['a number', { origins: [443] }],
    ['an unknown field', { origins: [], originz: ['https://shop.example'] }],
  ])('refuses %s with a 400 and changes nothing', async (_name, body) => {
    const response = await put('live', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(await storedRows()).toEqual([]);
  });

  it('refuses an environment other than live or test', async () => {
    const response = await put('staging', { origins: ['https://shop.example'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'params/environment', message: 'must be live or test' }]);
    expect(await storedRows()).toEqual([]);
  });

  it('lets owners, admins and developers change the list; billing and members get 403 naming the roles', async () => {
    expect((await put('live', { origins: ['https://shop.example'] }, OWNER)).statusCode).toBe(200);
    for (const userId of [BILLING, MEMBER]) {
      const refused = await put('live', { origins: ['https://evil.example'] }, userId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'forbidden',
        error: 'This needs the role owner, admin or developer',
      });
    }
    const outsider = await put('live', { origins: ['https://evil.example'] }, OUTSIDER);
    expect(outsider.statusCode).toBe(404);
    expect((await list(BILLING)).json().data.live).toEqual(['https://shop.example']);
  });

  it('lists the routes in the OpenAPI document with their schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const path = document.paths['/v1/organizations/{id}/allowed-origins/{environment}'];
    expect(path.put.summary).toBe("Replace an environment's allowed origins");
    expect(document.components.schemas.AllowedOrigins).toBeDefined();
  });
});
