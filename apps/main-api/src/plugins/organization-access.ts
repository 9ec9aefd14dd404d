import { type Database, isUuid, uuidPattern } from '@platform/db';
import { validationError } from '@platform/errors';
import { type TObject, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type OrganizationAccess, requireMembership } from '../modules/organizations/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on routes with `config: { organization: true }`, once the user's membership is confirmed. */
    organization: OrganizationAccess;
  }
  interface FastifyContextConfig {
    /** The route acts for the organization named by `X-Organization-Id`, and the user must belong to it. */
    organization?: boolean;
  }
}

/** Header naming the organization a request acts for (lower case: Node lower-cases incoming header names). */
const ORGANIZATION_HEADER = 'x-organization-id';

/** The headers schema that documents `X-Organization-Id` (added to every organization route automatically). */
const OrganizationHeadersSchema = Type.Object({
  [ORGANIZATION_HEADER]: Type.String({
    pattern: uuidPattern,
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

/**
 * A hook that requires the authenticated user to be a member of the organization named by
 * `X-Organization-Id` and sets `request.organization`. Usable directly as a route's preValidation or
 * preHandler hook; the plugin below runs it for every route with `config: { organization: true }`.
 */
function createOrganizationGuard(db: Database) {
  return async function requireOrganizationMember(request: FastifyRequest): Promise<void> {
    const organizationId = organizationIdFrom(request);
    request.organization = await requireMembership(db, request.user.id, organizationId);
  };
}

export interface OrganizationAccessOptions {
  db: Database;
}

/**
 * Runs the organization guard on routes with `config: { organization: true }` and documents the header on
 * them. The guard runs on preValidation: after authentication and the rate limit (onRequest), before the
 * body is validated, so a non-member learns nothing about the route's input rules.
 */
export const organizationAccess = fp<OrganizationAccessOptions>(
  async (app, { db }) => {
    const requireOrganizationMember = createOrganizationGuard(db);
    app.decorateRequest('organization', null as unknown as OrganizationAccess);

    app.addHook('onRoute', (route) => {
      if (route.config?.organization !== true) return;
      if (route.config.public === true) {
        throw new Error(`Route ${String(route.method)} ${route.url} cannot be both public and organization-scoped`);
      }
      route.schema = { ...route.schema, headers: withOrganizationHeader(route.schema?.headers) };
    });

    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.organization === true) await requireOrganizationMember(request);
    });
  },
  { name: 'organization-access', dependencies: ['authentication'], fastify: '5.x' },
);

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
