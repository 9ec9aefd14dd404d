import { type ApiKeyEnvironment, apiKeyEnvironments, isUuid, type MembershipRole } from '@platform/db';
import { type Locale, locales } from '@platform/templates';
import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { DashboardSessionStore } from './service.js';

// What every dashboard request reads from the sealed cookie and its query (docs/decisions.md#dashboard-pages): the
// language, the signed-in user, the organization it acts for and whether it shows test or live data. A choice made
// with `?lang=`, `?org=` or `?env=` is kept in the cookie, so every later page keeps it.

export interface DashboardOrganization {
  id: string;
  name: string;
  role: MembershipRole;
}

/** What a signed-in dashboard page knows of its request; set by the page guard (page-access.ts). */
export interface DashboardContext {
  locale: Locale;
  userId: string;
  /** The profile's name, else its address: shown in the header. */
  userLabel: string;
  csrfToken: string;
  /** Every organization the user belongs to, for the switcher. */
  organizations: DashboardOrganization[];
  /** The one the page acts for; null only on pages that need none (Home, Profile, creating one). */
  organization: DashboardOrganization | null;
  /** Test or live data: the toggle on every page; test until live is chosen. */
  environment: ApiKeyEnvironment;
  /** The user's unread notifications, counted in the header. */
  unreadNotifications: number;
}

const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

/** The page's language: `?lang=` (then kept in the cookie), else the one kept, else the browser's preference. */
export function localeOf(request: FastifyRequest): Locale {
  const chosen = locales.find((locale) => locale === queryOf(request)['lang']);
  if (chosen !== undefined) {
    request.session.set('dashboardLocale', chosen);
    return chosen;
  }
  const kept = locales.find((locale) => locale === request.session.get('dashboardLocale'));
  return kept ?? (new Negotiator(request).language([...locales]) as Locale | undefined) ?? 'en';
}

/** The user of the cookie's session while it lasts, else null. */
export async function signedInUser(
  request: FastifyRequest,
  sessions: DashboardSessionStore,
  now: Date,
): Promise<string | null> {
  const secret = request.session.get('dashboardSession');
  return typeof secret === 'string' ? sessions.userOf(secret, now) : null;
}

/** Test or live: `?env=` (then kept), else the one kept, else test. */
export function environmentOf(request: FastifyRequest): ApiKeyEnvironment {
  const chosen = apiKeyEnvironments.find((environment) => environment === queryOf(request)['env']);
  if (chosen !== undefined) {
    request.session.set('dashboardEnvironment', chosen);
    return chosen;
  }
  return (
    apiKeyEnvironments.find((environment) => environment === request.session.get('dashboardEnvironment')) ?? 'test'
  );
}

/**
 * The organization asked for with `?org=` (undefined when none is asked; null when the user is not its member, which
 * the guard answers as a 404), else the one kept if the user still belongs to it, else the newest.
 */
export function organizationOf(
  request: FastifyRequest,
  organizations: readonly DashboardOrganization[],
): DashboardOrganization | null | undefined {
  const asked = queryOf(request)['org'];
  if (asked !== undefined) {
    const found = typeof asked === 'string' && isUuid(asked) ? organizations.find(({ id }) => id === asked) : undefined;
    if (found === undefined) return null;
    request.session.set('dashboardOrganization', found.id);
    return found;
  }
  return keptOrganizationOf(request, organizations);
}

/** The organization the cookie keeps while the user still belongs to it, else the newest; undefined in none. */
export function keptOrganizationOf(
  request: FastifyRequest,
  organizations: readonly DashboardOrganization[],
): DashboardOrganization | undefined {
  const kept = request.session.get('dashboardOrganization');
  return organizations.find(({ id }) => id === kept) ?? organizations[0];
}

/** Where sign-in goes back to: a dashboard path of this site, else Home. */
export function safeReturnTo(path: unknown, home: string): string {
  if (typeof path !== 'string' || path.length > 2048) return home;
  if (!(path === home || path.startsWith(`${home}/`) || path.startsWith(`${home}?`))) return home;
  return /[\\\s]/.test(path) ? home : path;
}
