import { memberships, users } from '@platform/db/schema';
import { Type } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { NOT_A_MEMBER, ORGANIZATION_NOT_FOUND } from '../modules/organizations/index.js';
import { createLocalFolderStorage } from '../storage/local-folder.js';

const MEMBER = 'user_org_member';
const OUTSIDER = 'user_org_outsider';
const UNKNOWN_ORGANIZATION = '7d9f3c2a-1b4e-4c5d-8e6f-0a1b2c3d4e5f';
const PLATFORM_ORGANIZATION = '3c1e8b7a-5d2f-4a6b-9c0d-1e2f3a4b5c6d';
const PLATFORM_MEMBER = 'user_org_platform_member';

let t: TestApp;
let organizationId: string;
let otherOrganizationId: string;

beforeAll(async () => {
  t = await createTestApp({
    env: { PLATFORM_ORGANIZATION_ID: PLATFORM_ORGANIZATION },
    setup: (app) =>
      app.register(async (routes) => {
        const config = { organization: true, requires: 'organization:read' } as const;
        routes.get('/v1/test/organization', { config }, async (request) => request.organization);
        routes.post(
          '/v1/test/organization/owners-only',
          { config: { organization: true, requires: 'owners:write' } },
          async (request) => request.organization,
        );
        routes.get(
          '/v1/organizations/:id/test',
          { config: { organization: 'path', requires: 'organization:read' } },
          async (request) => request.organization,
        );
        routes.post(
          '/v1/organizations/:id/test',
          { config: { organization: 'path', requires: 'members:write' } },
          async (request) => request.organization,
        );
        routes.post(
          '/v1/test/organization',
          {
            config: { organization: true, requires: 'organization:read' },
            schema: { body: Type.Object({ amount: Type.Integer() }, { additionalProperties: false }) },
          },
          async (request) => request.organization,
        );
        routes.get(
          '/v1/test/organization-with-headers',
          {
            config: { organization: true, requires: 'organization:read' },
            schema: {
              headers: Type.Object({ 'x-trace': Type.Optional(Type.String({ description: 'A header of its own' })) }),
            },
          },
          async (request) => request.organization,
        );
        routes.get('/v1/test/no-organization', async (request) => ({ organization: request.organization }));
        routes.get(
          '/v1/test/platform',
          { config: { organization: 'platform', requires: 'organization:read' } },
          async (request) => request.organization,
        );
        routes.post(
          '/v1/test/platform',
          { config: { organization: 'platform', requires: 'reviews:decide' } },
          async (request) => request.organization,
        );
      }),
  });
  await insertOrganization(t.db, { id: PLATFORM_ORGANIZATION, name: 'The platform' });
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await t.db.delete(users);
  await insertUser(t.db, { id: MEMBER });
  await insertUser(t.db, { id: OUTSIDER });
  organizationId = await insertOrganization(t.db, { members: [{ userId: MEMBER, role: 'admin' }] });
  otherOrganizationId = await insertOrganization(t.db, { members: [{ userId: OUTSIDER, role: 'owner' }] });
  await insertUser(t.db, { id: PLATFORM_MEMBER });
  await t.db
    .insert(memberships)
    .values({ organizationId: PLATFORM_ORGANIZATION, userId: PLATFORM_MEMBER, role: 'member' });
});

async function get(userId: string, organizationHeader?: string | string[]) {
  return t.app.inject({
    method: 'GET',
    url: '/v1/test/organization',
    headers: {
      ...(await authHeader(userId)),
      ...(organizationHeader === undefined ? {} : { 'x-organization-id': organizationHeader }),
    },
  });
}

function withoutRequestId(body: Record<string, unknown>) {
  const { requestId, ...rest } = body;
  expect(requestId).toEqual(expect.any(String));
  return rest;
}

describe('organization guard', () => {
  it("sets the organization and the user's role for a member", async () => {
    const response = await get(MEMBER, organizationId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: organizationId, role: 'admin' });
  });

  it('accepts the id in upper case and reports it in canonical form', async () => {
    const response = await get(MEMBER, organizationId.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: organizationId, role: 'admin' });
  });

  it.each([
    ['missing', undefined, 'is required'],
    ['empty', '', 'is required'],
  ])('answers 400 naming the header when it is %s', async (_label, value, message) => {
    const response = await get(MEMBER, value);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: 'X-Organization-Id header is required',
      code: 'validation_error',
      requestId: response.headers['x-request-id'],
      details: [{ path: 'headers/x-organization-id', message }],
    });
  });

  it.each<[string, string | string[]]>([
    ['not a UUID', 'org_123'],
    ['a UUID with extra characters', `${'7d9f3c2a-1b4e-4c5d-8e6f-0a1b2c3d4e5f'} `],
    ['a UUID without dashes', '7d9f3c2a1b4e4c5d8e6f0a1b2c3d4e5f'],
    ['sent twice', ['7d9f3c2a-1b4e-4c5d-8e6f-0a1b2c3d4e5f', '7d9f3c2a-1b4e-4c5d-8e6f-0a1b2c3d4e5f']],
  ])('answers 400 when the header is %s', async (_label, value) => {
    const response = await get(MEMBER, value);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'X-Organization-Id header must be a UUID',
      code: 'validation_error',
      details: [{ path: 'headers/x-organization-id', message: 'must be a UUID' }],
    });
  });

  it('answers the same 403 for an unknown organization and for one the user is not in', async () => {
    const unknown = await get(MEMBER, UNKNOWN_ORGANIZATION);
    const notMember = await get(MEMBER, otherOrganizationId);
    expect(unknown.statusCode).toBe(403);
    expect(notMember.statusCode).toBe(403);
    expect(withoutRequestId(unknown.json())).toEqual({ success: false, error: NOT_A_MEMBER, code: 'forbidden' });
    expect(withoutRequestId(notMember.json())).toEqual(withoutRequestId(unknown.json()));
    expect(notMember.headers['content-length']).toBe(unknown.headers['content-length']);
  });

  it('refuses a member of another organization even though they belong to one', async () => {
    const response = await get(OUTSIDER, organizationId);
    expect(response.statusCode).toBe(403);
    expect((await get(OUTSIDER, otherOrganizationId)).json()).toEqual({ id: otherOrganizationId, role: 'owner' });
  });

  it('checks membership before the body, so a non-member learns nothing about the input rules', async () => {
    const send = async (userId: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/test/organization',
        headers: { ...(await authHeader(userId)), 'x-organization-id': organizationId },
        payload: payload as object,
      });
    expect((await send(OUTSIDER, { amount: 'many' })).statusCode).toBe(403);
    const invalid = await send(MEMBER, { amount: 'many' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().details).toEqual([{ path: '/amount', message: 'must be a whole number' }]);
    expect((await send(MEMBER, { amount: 5 })).json()).toEqual({ id: organizationId, role: 'admin' });
  });

  it('asks for the token first: 401 without one, header or not', async () => {
    for (const headers of [{}, { 'x-organization-id': organizationId }]) {
      const response = await t.app.inject({ method: 'GET', url: '/v1/test/organization', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('unauthorized');
    }
  });

  it('leaves routes that do not opt in alone', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/test/no-organization',
      headers: { ...(await authHeader(MEMBER)), 'x-organization-id': 'not-a-uuid' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ organization: null });
  });

  it("keeps a route's own headers and adds the organization header to them", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/test/organization-with-headers',
      headers: { ...(await authHeader(MEMBER)), 'x-organization-id': organizationId, 'x-trace': 'abc' },
    });
    expect(response.statusCode).toBe(200);
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/test/organization-with-headers'].get.parameters as { name: string }[];
    expect(parameters.map((parameter) => parameter.name).sort()).toEqual(['x-organization-id', 'x-trace']);
  });

  it('documents the header as a required UUID header parameter', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/test/organization'].post.parameters as Record<string, unknown>[];
    expect(parameters).toContainEqual(
      expect.objectContaining({
        in: 'header',
        name: 'x-organization-id',
        required: true,
        schema: expect.objectContaining({ type: 'string', format: 'uuid' }),
      }),
    );
    expect(document.paths['/v1/test/no-organization'].get.parameters ?? []).toEqual([]);
  });
});

describe('the role check', () => {
  it('answers 403 naming the roles that may, for a member whose role lacks the permission, and runs the handler otherwise', async () => {
    const send = async (userId: string, organization: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/test/organization/owners-only',
        headers: { ...(await authHeader(userId)), 'x-organization-id': organization },
      });
    const refused = await send(MEMBER, organizationId);
    expect(refused.statusCode).toBe(403);
    expect(withoutRequestId(refused.json())).toEqual({
      success: false,
      error: 'This needs the role owner',
      code: 'forbidden',
    });
    expect((await send(OUTSIDER, otherOrganizationId)).json()).toEqual({ id: otherOrganizationId, role: 'owner' });
  });

  it('documents the roles that may call each organization route in its OpenAPI description', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/v1/test/organization/owners-only'].post.description).toBe('Roles: owner (owners:write).');
    expect(document.paths['/v1/test/organization'].get.description).toContain(
      'Roles: owner, admin, developer, billing, member, reviewer or finance (organization:read).',
    );
  });

  it('lists every organization route with its permission, for the role-matrix test', () => {
    expect(t.app.organizationRoutes).toContainEqual({
      method: 'POST',
      url: '/v1/organizations/:id/test',
      organization: 'path',
      requires: 'members:write',
    });
    expect(t.app.organizationRoutes.some((route) => route.url === '/v1/test/no-organization')).toBe(false);
  });
});

describe('an organization named in the path', () => {
  const call = async (method: 'GET' | 'POST', userId: string, organization: string) =>
    t.app.inject({ method, url: `/v1/organizations/${organization}/test`, headers: await authHeader(userId) });

  it("sets the organization and the member's role, without asking for the header", async () => {
    const response = await call('GET', MEMBER, organizationId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: organizationId, role: 'admin' });
  });

  it('answers the same 404 for an organization the user is not in, an unknown one and a malformed id', async () => {
    const answers = await Promise.all([
      call('GET', OUTSIDER, organizationId),
      call('GET', MEMBER, UNKNOWN_ORGANIZATION),
      call('GET', MEMBER, 'not-a-uuid'),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(withoutRequestId(answer.json())).toEqual({
        success: false,
        error: ORGANIZATION_NOT_FOUND,
        code: 'not_found',
      });
    }
  });

  it("checks the member's role there too", async () => {
    const admin = await call('POST', MEMBER, organizationId);
    expect(admin.statusCode).toBe(200);
    const demoted = await insertOrganization(t.db, { members: [{ userId: MEMBER, role: 'billing' }] });
    const refused = await call('POST', MEMBER, demoted);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('This needs the role owner or admin');
  });
});

describe('the platform organization', () => {
  const call = async (method: 'GET' | 'POST', userId: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url: '/v1/test/platform', headers: { ...(await authHeader(userId)), ...headers } });

  it("acts for the platform organization, whatever header is sent, with the caller's role there", async () => {
    const response = await call('GET', PLATFORM_MEMBER, { 'x-organization-id': organizationId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: PLATFORM_ORGANIZATION, role: 'member' });
  });

  it('answers a non-member, an admin of another organization included, the 403 naming the roles that may', async () => {
    for (const userId of [MEMBER, OUTSIDER]) {
      const response = await call('GET', userId, { 'x-organization-id': organizationId });
      expect(response.statusCode).toBe(403);
      expect(withoutRequestId(response.json())).toEqual({
        success: false,
        error: 'This needs the role owner, admin, developer, billing, member, reviewer or finance',
        code: 'forbidden',
      });
    }
  });

  it("checks the member's role there: a member is not a reviewer, a reviewer is", async () => {
    const refused = await call('POST', PLATFORM_MEMBER);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('This needs the role reviewer');
    await t.db
      .update(memberships)
      .set({ role: 'reviewer' })
      .where(and(eq(memberships.organizationId, PLATFORM_ORGANIZATION), eq(memberships.userId, PLATFORM_MEMBER)));
    const allowed = await call('POST', PLATFORM_MEMBER);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ id: PLATFORM_ORGANIZATION, role: 'reviewer' });
  });

  it('documents no organization header, and names the platform organization beside the roles', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = document.paths['/v1/test/platform'].post;
    expect(operation.description).toBe(
      "Roles: reviewer in the platform's own organization (PLATFORM_ORGANIZATION_ID) (reviews:decide).",
    );
    expect(operation.parameters ?? []).toEqual([]);
    expect(t.app.organizationRoutes).toContainEqual({
      method: 'POST',
      url: '/v1/test/platform',
      organization: 'platform',
      requires: 'reviews:decide',
    });
  });
});

describe('organization guard setup', () => {
  function startWith(url: string, config: Record<string, unknown>): Promise<unknown> {
    const storage = createLocalFolderStorage({ directory: t.avatarDir, publicUrl: t.config.publicUrl });
    const app = buildApp({ database: t.database, storage }, t.config);
    app.register(async (routes) => {
      routes.get(url, { config }, async () => ({}));
    });
    return Promise.resolve(app.ready()).finally(() => app.close());
  }

  it('refuses an organization route that does not name the permission it needs', async () => {
    await expect(startWith('/v1/test/unguarded', { organization: true })).rejects.toThrow(
      /config.requires must name a permission/,
    );
    await expect(
      startWith('/v1/test/unknown-permission', { organization: true, requires: 'everything' }),
    ).rejects.toThrow(/config.requires must name a permission/);
  });

  it('refuses a permission on a route that acts for no organization, and a path route outside /v1/organizations/:id', async () => {
    await expect(startWith('/v1/test/stray', { requires: 'billing:write' })).rejects.toThrow(
      /names a permission but no organization/,
    );
    await expect(startWith('/v1/test/:id', { organization: 'path', requires: 'organization:read' })).rejects.toThrow(
      /must be under \/v1\/organizations\/:id/,
    );
  });

  it('refuses an organization mode it does not know', async () => {
    await expect(
      startWith('/v1/test/elsewhere', { organization: 'elsewhere', requires: 'organization:read' }),
    ).rejects.toThrow(/config.organization must be true, 'path' or 'platform'/);
  });

  it('refuses a route that is both public and organization-scoped', async () => {
    const storage = createLocalFolderStorage({ directory: t.avatarDir, publicUrl: t.config.publicUrl });
    const app = buildApp({ database: t.database, storage }, t.config);
    app.register(async (routes) => {
      routes.get(
        '/v1/test/both',
        { config: { public: true, organization: true, requires: 'organization:read' } },
        async () => ({}),
      );
    });
    await expect(app.ready()).rejects.toThrow(/cannot be both public and organization-scoped/);
    await app.close();
  });
});
