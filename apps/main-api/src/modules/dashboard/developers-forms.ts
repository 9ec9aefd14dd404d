import type { ApiKeyEnvironment, Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardOrganization } from './context.js';
import { frameOf, type SignedInFrame } from './pages/layout.js';

// What the Developers routes share (docs/decisions.md#dashboard-pages): the guard's type, what a page read of its
// request, a form field, and the reason a service gave for refusing a field.

/** The page guard of the dashboard (page-access.ts). */
type DashboardGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The route rules of the Developers pages: the API routes' permissions. */
export const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
export const write = { public: true, idempotency: 'none', dashboardPage: { requires: 'developer:write' } } as const;

export interface DashboardDeveloperRoutesOptions {
  db: Database;
  now: () => Date;
  /** The highest rate limit of a key for organizations without a maximum of their own (as `POST /v1/api-keys`). */
  rateLimitMaxPerMinute: number;
  /** Accept http and private or loopback webhook URLs (local runs and tests only, as the API's routes). */
  allowPrivateTargets: boolean;
  guard: DashboardGuard;
}

const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** A page's query: the frame's choices and a notice to show once. */
export const DeveloperPageQuery = Type.Object(
  { notice: text(32), lang: text(8), org: text(64), env: text(8) },
  { additionalProperties: false },
);

/** What a Developers page reads of its request: the frame, the organization (the guard required one), the data. */
export function pageOf(request: FastifyRequest) {
  const context = request.dashboard;
  const organization = context.organization as DashboardOrganization;
  const signedIn = frameOf(context) as SignedInFrame & { environment: ApiKeyEnvironment };
  return { context, locale: context.locale, organization, environment: context.environment, signedIn };
}

/** A text field of a form, trimmed; '' when missing (a repeated field: its first value). */
export function fieldOf(body: Record<string, string | string[]>, name: string): string {
  const value = body[name];
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

/** Why a service refused a field (a 400 `validation_error`), as its details say it; undefined for other errors. */
export function refusalOf(error: unknown): string | undefined {
  if (!isAppError(error) || error.statusCode !== 400) return undefined;
  const reasons = (error.details ?? []).map((detail) => detail.message);
  return reasons.length > 0 ? reasons.join('; ') : error.message;
}
