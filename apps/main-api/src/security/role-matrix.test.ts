import { randomUUID } from 'node:crypto';
import { membershipRoles } from '@platform/db';
import type { RegisteredRoute } from '@platform/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../test/helpers.js';
import {
  allows,
  NOT_A_MEMBER,
  ORGANIZATION_NOT_FOUND,
  permissions,
  refusalMessage,
  rolesByPermission,
} from '../modules/organizations/index.js';
import type { OrganizationRoute } from '../plugins/organization-access.js';

// The role policy (docs/decisions.md#roles) walked over every route main-api registers, generated from the app
// itself: each organization route is called by a member of each role, and answers 403 `forbidden` with the
// policy's message exactly when the role lacks the route's permission. Every other route is public or on the short
// list below, so a new route cannot skip the policy without this test naming it.

/**
 * Routes that act for the user alone, not for an organization, so no role applies: each says why. A route that
 * is neither public (`config.public`), an organization route, nor here fails the inventory test.
 */
const USER_LEVEL_ROUTES: Record<string, string> = {
  'POST /v1/accounts': "creates the caller's own profile, before any organization",
  'GET /v1/accounts/me': "the caller's own profile",
  'PATCH /v1/accounts/me': "the caller's own profile",
  'POST /v1/auth/avatar': "the caller's own avatar",
  'GET /v1/notifications': "the caller's own in-app notifications",
  'PATCH /v1/notifications/read-all': "the caller's own in-app notifications",
  'PATCH /v1/notifications/:id/read': "the caller's own in-app notifications (another user's id is a 404)",
  'POST /v1/organizations': 'creates an organization, whose creator becomes its owner',
  'GET /v1/organizations': 'lists the organizations the caller belongs to, each with the role',
  'POST /v1/invitations/:invitationId/accept':
    "the invitee is not a member yet: the token's email must match the invitation (404 otherwise)",
  'GET /docs*': 'the OpenAPI document and its browser UI (@fastify/swagger-ui), no data',
  'OPTIONS *': 'CORS preflight answers, before any route runs',
};

/**
 * A route that changes something needs more than `organization:read`, except these, each saying why: a typo that
 * let every member write would otherwise pass the matrix (which takes each route's own declaration as its truth).
 */
const WRITES_ANY_MEMBER_MAY_MAKE: Record<string, string> = {
  'DELETE /v1/organizations/:id/members/:userId':
    'leaving (removing oneself) needs no permission; removing someone else is checked by the members service',
};

/** The roles each test user has, one user per role, and an owner of another organization. */
const userOf = (role: string) => `user_matrix_${role}`;
const OUTSIDER = 'user_matrix_outsider';
/** A reviewer, but of an organization that is not the platform's. */
const REVIEWER_ELSEWHERE = 'user_matrix_reviewer_elsewhere';
/** A finance member, but of an organization that is not the platform's. */
const FINANCE_ELSEWHERE = 'user_matrix_finance_elsewhere';
/**
 * The platform's own organization (PLATFORM_ORGANIZATION_ID), where `organization: 'platform'` routes check the
 * caller's role (docs/decisions.md#manual-review): each role's user is a member of it in that role.
 */
const PLATFORM_ORGANIZATION_ID = randomUUID();
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestApp;
let organizationRoutes: OrganizationRoute[];
let registered: RegisteredRoute[];

beforeAll(async () => {
  // The rate limit must never be what answers.
  t = await createTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '100000000', PLATFORM_ORGANIZATION_ID },
  });
  organizationRoutes = t.app.organizationRoutes;
  registered = t.app.registeredRoutes.filter((route) => route.method !== 'HEAD');
  for (const role of membershipRoles) await insertUser(t.db, { id: userOf(role) });
  await insertUser(t.db, { id: OUTSIDER });
  // The outsider owns an organization of its own: in another, it holds every permission but not the membership.
  await insertOrganization(t.db, { members: [{ userId: OUTSIDER, role: 'owner' }] });
  await insertOrganization(t.db, {
    id: PLATFORM_ORGANIZATION_ID,
    name: 'The platform',
    members: membershipRoles.map((role) => ({ userId: userOf(role), role })),
  });
  await insertUser(t.db, { id: REVIEWER_ELSEWHERE });
  await insertOrganization(t.db, { members: [{ userId: REVIEWER_ELSEWHERE, role: 'reviewer' }] });
  await insertUser(t.db, { id: FINANCE_ELSEWHERE });
  await insertOrganization(t.db, { members: [{ userId: FINANCE_ELSEWHERE, role: 'finance' }] });
});
afterAll(async () => {
  await t?.close();
});

const routeName = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

function isUserLevel(route: RegisteredRoute): boolean {
  return Object.keys(USER_LEVEL_ROUTES).some((entry) => {
    if (entry === routeName(route)) return true;
    const [method, url] = entry.split(' ');
    // `/docs*`: every path that starts so.
    return (
      url !== undefined &&
      url.length > 1 &&
      url.endsWith('*') &&
      method === route.method &&
      route.url.startsWith(url.slice(0, -1))
    );
  });
}

/**
 * A value for a path parameter other than the organization: the first the schema allows when it lists them (an
 * environment, say), so an allowed role's request reaches the handler; a random UUID otherwise (no such object).
 */
function placeholderFor(route: OrganizationRoute, name: string): string {
  const declared = registered.find((candidate) => routeName(candidate) === routeName(route))?.schema.params as
    | { properties?: Record<string, { enum?: unknown[]; anyOf?: { const?: unknown }[] }> }
    | undefined;
  const schema = declared?.properties?.[name];
  const listed = schema?.enum?.[0] ?? schema?.anyOf?.find((option) => option.const !== undefined)?.const;
  return typeof listed === 'string' ? listed : randomUUID();
}

/**
 * The request a member sends to `route` for `organizationId`: the organization in the path or the header, every
 * other path parameter a placeholder, no body and no query (the guard runs before validation, so what a role
 * may not do is refused before its input is looked at), and an Idempotency-Key on mutations so that the billing
 * routes' key handling is never what answers.
 */
async function requestTo(route: OrganizationRoute, organizationId: string, userId: string) {
  const url = route.url
    .replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
      name === 'id' && route.organization === 'path' ? organizationId : placeholderFor(route, name),
    )
    .replace(/\*$/, 'x');
  return t.app.inject({
    method: route.method as 'GET',
    url,
    headers: {
      ...(await authHeader(userId)),
      ...(route.organization === true ? { 'x-organization-id': organizationId } : {}),
      ...(MUTATING.has(route.method) ? { 'idempotency-key': randomUUID() } : {}),
    },
  });
}

describe('the route inventory', () => {
  it('finds the organization routes, with and without the organization in the path', () => {
    expect(organizationRoutes.map(routeName)).toEqual(
      expect.arrayContaining([
        'POST /v1/api-keys',
        'POST /v1/billing/pay',
        'GET /v1/organizations/:id/audit-events',
        'GET /v1/verification-sessions',
        'GET /v1/verification-sessions/:id',
        'POST /v1/verification-sessions/:id/cancel',
      ]),
    );
    expect(organizationRoutes.map(routeName)).toEqual(
      expect.arrayContaining([
        'GET /v1/reviews',
        'POST /v1/reviews/:sessionId/decision',
        'GET /v1/finance/payments',
        'POST /v1/finance/payments/:reference/confirm',
      ]),
    );
    expect(new Set(organizationRoutes.map((route) => route.organization))).toEqual(new Set([true, 'path', 'platform']));
  });

  it('finds the delivery log read by every member, and redelivery and test events for those who manage endpoints', () => {
    const requirements = Object.fromEntries(organizationRoutes.map((route) => [routeName(route), route.requires]));
    expect(requirements).toMatchObject({
      'GET /v1/webhooks/events': 'organization:read',
      'GET /v1/webhooks/events/:eventId': 'organization:read',
      'POST /v1/webhooks/events/:eventId/redeliver': 'developer:write',
      'POST /v1/webhooks/endpoints/:environment/test': 'developer:write',
    });
  });

  it('has every route public, an organization route naming its permission, or a user-level route listed with why', () => {
    const organization = new Set(organizationRoutes.map(routeName));
    const unaccounted = registered
      .filter((route) => route.config['public'] !== true && !organization.has(routeName(route)) && !isUserLevel(route))
      .map(routeName);
    expect(unaccounted).toEqual([]);
    for (const route of organizationRoutes) expect(permissions).toContain(route.requires);
  });

  it('asks more than organization:read of every organization route that changes something', () => {
    const readOnlyWrites = organizationRoutes
      .filter((route) => MUTATING.has(route.method) && route.requires === 'organization:read')
      .map(routeName)
      .filter((name) => !(name in WRITES_ANY_MEMBER_MAY_MAKE));
    expect(readOnlyWrites).toEqual([]);
  });

  it('lists no organization route or public route as user-level', () => {
    const listed = registered.filter(isUserLevel);
    expect(listed.filter((route) => route.config['organization'] !== undefined).map(routeName)).toEqual([]);
    expect(listed.filter((route) => route.config['public'] === true).map(routeName)).toEqual([]);
  });

  it('covers every permission of the policy with at least one route', () => {
    const used = new Set(organizationRoutes.map((route) => route.requires));
    expect([...used].every((permission) => permission in rolesByPermission)).toBe(true);
    // Asked by a handler of its own: a key asking for `verified_data:read` needs it on top of developer:write, each
    // role walked in api-keys/permissions.test.ts (docs/decisions.md#verified-data).
    const askedInHandlers: ReadonlySet<string> = new Set(['verifications:read_personal_data']);
    expect([...permissions].filter((permission) => !used.has(permission) && !askedInHandlers.has(permission))).toEqual(
      [],
    );
  });
});

describe('every organization route, for every role', () => {
  it('refuses exactly the roles the policy refuses, with 403 naming the roles that may', async () => {
    const mismatches: string[] = [];
    for (const route of organizationRoutes) {
      for (const role of membershipRoles) {
        // A fresh organization for each call: a route a role may call runs, and may change it (or delete it). A
        // platform route acts for the platform organization, where each role's user is a member.
        const organizationId =
          route.organization === 'platform'
            ? PLATFORM_ORGANIZATION_ID
            : await insertOrganization(t.db, { members: [{ userId: userOf(role), role }] });
        const response = await requestTo(route, organizationId, userOf(role));
        const where = `${routeName(route)} as ${role}: ${response.statusCode} ${response.body}`;
        if (allows(role, route.requires)) {
          if (response.statusCode === 403 || response.statusCode >= 500) mismatches.push(`allowed, but ${where}`);
        } else {
          const body = response.json<Record<string, unknown>>();
          const refused =
            response.statusCode === 403 &&
            body['code'] === 'forbidden' &&
            body['error'] === refusalMessage(route.requires) &&
            body['success'] === false;
          if (!refused) mismatches.push(`not allowed, but ${where}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses a member of another organization, whatever its role there: 403 by header, 404 in the path', async () => {
    const mismatches: string[] = [];
    for (const route of organizationRoutes) {
      const organizationId = await insertOrganization(t.db, { members: [{ userId: userOf('owner'), role: 'owner' }] });
      const response = await requestTo(route, organizationId, OUTSIDER);
      const expected =
        route.organization === 'path'
          ? { statusCode: 404, code: 'not_found', error: ORGANIZATION_NOT_FOUND }
          : route.organization === 'platform'
            ? { statusCode: 403, code: 'forbidden', error: refusalMessage(route.requires) }
            : { statusCode: 403, code: 'forbidden', error: NOT_A_MEMBER };
      const body = response.json<Record<string, unknown>>();
      if (
        response.statusCode !== expected.statusCode ||
        body['code'] !== expected.code ||
        body['error'] !== expected.error
      ) {
        mismatches.push(`${routeName(route)}: ${response.statusCode} ${response.body}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('lets exactly the roles with verifications:read_personal_data expand a session to its verified data', async () => {
    // An expansion, not a route: asked by the handler (docs/decisions.md#verified-data), walked here for every role.
    const mismatches: string[] = [];
    for (const role of membershipRoles) {
      const organizationId = await insertOrganization(t.db, { members: [{ userId: userOf(role), role }] });
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/verification-sessions/${randomUUID()}?expand=verified_outputs`,
        headers: { ...(await authHeader(userOf(role))), 'x-organization-id': organizationId },
      });
      // Allowed: the unknown session's 404; refused: 403 before anything is read.
      const expected = allows(role, 'verifications:read_personal_data') ? 404 : 403;
      if (response.statusCode !== expected) mismatches.push(`${role}: ${response.statusCode} ${response.body}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("refuses on the platform's routes a reviewer or finance member of another organization: those are the platform's roles", async () => {
    const platformRoutes = organizationRoutes.filter((route) => route.organization === 'platform');
    expect(platformRoutes.length).toBeGreaterThan(0);
    const mismatches: string[] = [];
    for (const route of platformRoutes) {
      for (const userId of [REVIEWER_ELSEWHERE, FINANCE_ELSEWHERE]) {
        const response = await requestTo(route, PLATFORM_ORGANIZATION_ID, userId);
        const body = response.json<Record<string, unknown>>();
        if (response.statusCode !== 403 || body['error'] !== refusalMessage(route.requires)) {
          mismatches.push(`${routeName(route)} as ${userId}: ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
