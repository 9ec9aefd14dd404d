import { type Database, isUuid } from '@platform/db';
import { forbidden, notFound, validationError } from '@platform/errors';
import { type TObject, Type } from '@sinclair/typebox';
import type { FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import {
  allows,
  isPermission,
  membershipIn,
  ORGANIZATION_NOT_FOUND,
  type OrganizationAccess,
  type Permission,
  refusalMessage,
  requireMembership,
  requireMembershipOf,
  rolesThatMay,
} from '../modules/organizations/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on organization routes, once the user's membership and role are confirmed. */
    organization: OrganizationAccess;
  }
  interface FastifyContextConfig {
    /**
     * The route acts for an organization the user must belong to: `true` names it with `X-Organization-Id` (an
     * unknown one or a non-member is 403, as the contract says), `'path'` with the URL's `:id` (404 "Organization
     * not found" alike, docs/decisions.md#roles), `'platform'` is the platform's own organization
     * (PLATFORM_ORGANIZATION_ID), named by nothing in the request: a user who is not its member, or whose role there
     * lacks the permission, is 403 naming the roles that have it (docs/decisions.md#manual-review).
     */
    organization?: boolean | 'path' | 'platform';
    /** The permission of the role policy the route needs (modules/organizations/policy.ts); required on organization routes. */
    requires?: Permission;
  }
  interface FastifyInstance {
    /** Every organization route and the permission it needs, in registration order (the role-matrix test walks them). */
    organizationRoutes: OrganizationRoute[];
  }
}

export interface OrganizationRoute {
  method: string;
  url: string;
  organization: true | 'path' | 'platform';
  requires: Permission;
}

/** Header naming the organization a request acts for (lower case: Node lower-cases incoming header names). */
const ORGANIZATION_HEADER = 'x-organization-id';

/** The headers schema that documents `X-Organization-Id` (added to every organization route automatically). */
const OrganizationHeadersSchema = Type.Object({
  [ORGANIZATION_HEADER]: Type.String({
    format: 'uuid',
    description: 'Identifier (UUID) of the organization the request acts for; the user must be a member of it.',
  }),
});

/** The header's value, or a 400 naming the header when it is missing or not a UUID. */
function organizationIdFrom(request: FastifyRequest): string {
  const value = request.headers[ORGANIZATION_HEADER];
  const path = `headers/${ORGANIZATION_HEADER}`;
  if (value === undefined || value === '') {
    throw validationError('X-Organization-Id header is required', [{ path, message: 'is required' }]);
  }
  // A repeated header arrives as an array (or joined with ", "): it names no single organization.
  if (typeof value !== 'string' || !isUuid(value)) {
    throw validationError('X-Organization-Id header must be a UUID', [{ path, message: 'must be a UUID' }]);
  }
  return value;
}

/** The `:id` of `/v1/organizations/:id/...`; a value that is not a UUID names no organization (404, like any unknown one). */
function organizationIdInPath(request: FastifyRequest): string | null {
  const id = (request.params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && isUuid(id) ? id : null;
}

/**
 * A hook that requires the authenticated user to be a member of the organization the route names, in a role that
 * holds the route's permission, and sets `request.organization`.
 */
function createOrganizationGuard(db: Database, platformOrganizationId: string | undefined) {
  return async function requireOrganizationRole(request: FastifyRequest): Promise<void> {
    const { organization, requires } = request.routeOptions.config;
    // Checked at start for every organization route, so always set here.
    const permission = requires as Permission;
    if (organization === 'platform') {
      // Membership is the role here: outsiders and members without it get the same answer, and without a platform
      // organization configured no one has it.
      const access =
        platformOrganizationId === undefined ? null : await membershipIn(db, request.user.id, platformOrganizationId);
      if (access === null || !allows(access.role, permission)) throw forbidden(refusalMessage(permission));
      request.organization = access;
      return;
    }
    if (organization === 'path') {
      const organizationId = organizationIdInPath(request);
      if (organizationId === null) throw notFound(ORGANIZATION_NOT_FOUND);
      request.organization = await requireMembershipOf(db, request.user.id, organizationId);
    } else {
      request.organization = await requireMembership(db, request.user.id, organizationIdFrom(request));
    }
    if (!allows(request.organization.role, permission)) throw forbidden(refusalMessage(permission));
  };
}

export interface OrganizationAccessOptions {
  db: Database;
  /** The platform's own organization (PLATFORM_ORGANIZATION_ID), for `organization: 'platform'` routes. */
  platformOrganizationId?: string | undefined;
}

/**
 * Runs the organization guard on organization routes and documents the header and the roles on them. A route
 * that acts for an organization without naming the permission it needs is refused when the app starts, so no
 * route can skip the role policy. The guard runs on preValidation: after authentication and the rate limit
 * (onRequest), before the body is validated, so a non-member learns nothing about the route's input rules.
 */
export const organizationAccess = fp<OrganizationAccessOptions>(
  async (app, { db, platformOrganizationId }) => {
    const requireOrganizationRole = createOrganizationGuard(db, platformOrganizationId);
    app.decorateRequest('organization', null as unknown as OrganizationAccess);
    app.decorate('organizationRoutes', [] as OrganizationRoute[]);

    app.addHook('onRoute', (route) => {
      const { organization, requires } = route.config ?? {};
      if (organization === undefined || organization === false) {
        if (requires !== undefined) throw new Error(`${describeRoute(route)} names a permission but no organization`);
        return;
      }
      if (route.config?.public === true) {
        throw new Error(`${describeRoute(route)} cannot be both public and organization-scoped`);
      }
      if (!isPermission(requires)) {
        throw new Error(`${describeRoute(route)} acts for an organization: config.requires must name a permission`);
      }
      if (organization === 'path' && !route.url.startsWith('/v1/organizations/:id')) {
        throw new Error(
          `${describeRoute(route)} names its organization in the path, so it must be under /v1/organizations/:id`,
        );
      }
      // `description` is @fastify/swagger's addition to the route schema, whose types only some builds load.
      if (organization !== true && organization !== 'path' && organization !== 'platform') {
        throw new Error(`${describeRoute(route)}: config.organization must be true, 'path' or 'platform'`);
      }
      const schema = route.schema as DocumentedSchema | undefined;
      const headers = organization === true ? withOrganizationHeader(schema?.headers) : schema?.headers;
      route.schema = {
        ...schema,
        // An undefined `headers` key makes Fastify warn that the schema is missing.
        ...(headers === undefined ? {} : { headers }),
        description: withRoles(schema?.description, requires, organization === 'platform'),
      } as DocumentedSchema;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.organizationRoutes.push({ method, url: route.url, organization, requires });
      }
    });

    // A callback hook: most routes act for no organization and should not pay for an async hook's promise.
    app.addHook('preValidation', (request, _reply, done) => {
      const { organization } = request.routeOptions.config;
      if (organization === true || organization === 'path' || organization === 'platform') {
        requireOrganizationRole(request).then(() => done(), done);
        return;
      }
      done();
    });
  },
  { name: 'organization-access', dependencies: ['authentication'], fastify: '5.x' },
);

type DocumentedSchema = FastifySchema & { description?: string };

function describeRoute(route: RouteOptions): string {
  return `Route ${[route.method].flat().join(',')} ${route.url}`;
}

/** The route's OpenAPI description, ending with the roles that may call it (and where, for platform routes). */
function withRoles(description: string | undefined, permission: Permission, platform: boolean): string {
  const where = platform ? " in the platform's own organization (PLATFORM_ORGANIZATION_ID)" : '';
  const roles = `Roles: ${rolesThatMay(permission)}${where} (${permission}).`;
  return description === undefined || description === '' ? roles : `${description}\n\n${roles}`;
}

// A route may declare other headers of its own (an idempotency key, say); the organization header joins them.
function withOrganizationHeader(headers: unknown): TObject {
  if (headers === undefined) return OrganizationHeadersSchema;
  const declared = headers as Partial<TObject>;
  if (declared.type !== 'object') throw new Error('An organization route must declare its headers as an object schema');
  return {
    ...declared,
    properties: { ...declared.properties, ...OrganizationHeadersSchema.properties },
    required: [...new Set([...(declared.required ?? []), ORGANIZATION_HEADER])],
  } as TObject;
}
