import type { Database } from '@platform/db';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redirectTo, sendPage } from '../../shared/html-forms.js';
import { getProfile } from '../accounts/index.js';
import { countUnreadNotifications } from '../notifications/index.js';
import { allows, listMembershipsOfProfile, type Permission, rolesThatMay } from '../organizations/index.js';
import {
  type DashboardContext,
  type DashboardOrganization,
  environmentOf,
  keptOrganizationOf,
  localeOf,
  organizationOf,
  signedInUser,
} from './context.js';
import type { SignedInFrame } from './pages/layout.js';
import { DASHBOARD_PATH, LOGIN_PATH, NEW_PROFILE_PATH } from './pages/nav.js';
import { errorPage, offPage } from './pages/sign-in.js';
import type { DashboardSessionStore } from './service.js';

// The one gate of every signed-in dashboard page and form (docs/decisions.md#dashboard-pages): the session, the
// organization the page acts for and the role policy's permission, the same `allows` the API's organization guard
// asks. Without a session it sends to sign-in and back; without a profile, to the form that makes one, and back; an
// organization the user is not a member of is the same 404 page as one that does not exist; a role without the
// permission is a 403 page naming the roles that have it.

export interface DashboardPageRule {
  /** The permission of the role policy the page needs in its organization; none for pages of the user's own. */
  requires?: Permission;
  /** The "complete your profile" form: for a signed-in user without a profile, whom every other page sends to it. */
  newProfile?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A signed-in dashboard page or form, checked by the page guard. */
    dashboardPage?: DashboardPageRule;
  }
  interface FastifyRequest {
    /** Set by the page guard on dashboard pages. */
    dashboard: DashboardContext;
  }
}

export interface DashboardPageGuardOptions {
  db: Database;
  sessions: DashboardSessionStore;
  now: () => Date;
  /** False without an identity provider: every page is the "not set up" page. */
  enabled: boolean;
}

export function dashboardPageGuard({ db, sessions, now, enabled }: DashboardPageGuardOptions) {
  return async function requireDashboardUser(request: FastifyRequest, reply: FastifyReply) {
    const locale = localeOf(request);
    if (!enabled) return sendPage(reply, offPage(locale), 404);
    const userId = await signedInUser(request, sessions, now());
    const { requires, newProfile } = request.routeOptions.config.dashboardPage ?? {};
    if (userId === null) {
      const awaiting = request.session.get('dashboardNewProfile');
      if (awaiting !== undefined && awaiting.expiresAt > now().getTime()) {
        // Signed in without a profile (the provider gave no name): its form first, then the page asked for.
        if (newProfile === true) return letThrough(request, reply, locale, awaiting);
        if (request.method === 'GET') request.session.set('dashboardReturnTo', request.url);
        return redirectTo(reply, NEW_PROFILE_PATH);
      }
      const hadSession = typeof request.session.get('dashboardSession') === 'string' || awaiting !== undefined;
      request.session.set('dashboardSession', undefined);
      request.session.set('dashboardNewProfile', undefined);
      if (request.method === 'GET') request.session.set('dashboardReturnTo', request.url);
      return redirectTo(reply, hadSession ? `${LOGIN_PATH}?notice=expired` : LOGIN_PATH);
    }
    // A session is opened for a user with a profile only: the form has nothing left to do.
    if (newProfile === true) return redirectTo(reply, DASHBOARD_PATH);
    // getProfile answers 404 for a user without a profile, so the memberships are read without checking it again.
    const [profile, organizations, unreadNotifications] = await Promise.all([
      getProfile(db, userId),
      listMembershipsOfProfile(db, userId),
      countUnreadNotifications(db, userId),
    ]);
    const chosen = organizationOf(request, organizations);
    const userLabel = profile.name ?? profile.email;
    // The refusals carry the signed-in header, so the visitor can move on: their own organizations only (for one they
    // are not a member of, the one kept), nothing of the one asked for.
    const refuse = (status: number, message: string, organization: DashboardOrganization | undefined) => {
      const signedIn = {
        userLabel,
        csrfToken: reply.generateCsrf(),
        organizations,
        organization,
        unreadNotifications,
      };
      return sendPage(reply, errorPage({ locale, status, message, path: refusedPagePath(request), signedIn }), status);
    };
    if (chosen === null) {
      return refuse(
        404,
        text(locale, 'dashboard.error.organizationNotFound'),
        keptOrganizationOf(request, organizations),
      );
    }
    if (requires !== undefined) {
      // A page of an organization, for a user in none yet: Home says how to create one.
      if (chosen === undefined) return redirectTo(reply, DASHBOARD_PATH);
      if (!allows(chosen.role, requires)) {
        return refuse(403, text(locale, 'dashboard.error.needsRole', { roles: rolesThatMay(requires) }), chosen);
      }
    }
    request.dashboard = {
      locale,
      userId,
      userLabel,
      csrfToken: reply.generateCsrf(),
      organizations,
      organization: chosen ?? null,
      environment: environmentOf(request),
      unreadNotifications,
    };
  };
}

/** The context of the "complete your profile" form: the user signed in, no organization, nothing chosen yet. */
function letThrough(
  request: FastifyRequest,
  reply: FastifyReply,
  locale: DashboardContext['locale'],
  awaiting: { userId: string; email: string },
): void {
  request.dashboard = {
    locale,
    userId: awaiting.userId,
    userLabel: awaiting.email,
    csrfToken: reply.generateCsrf(),
    organizations: [],
    organization: null,
    environment: 'test',
    // A user without a profile has no notifications yet.
    unreadNotifications: 0,
  };
}

/**
 * The path an error page is given for its language links: the page's own (switching the language shows the same
 * answer), or Home after a form, whose path answers no GET, and for a path naming an object (its id is not repeated
 * on a page that says it found nothing).
 */
export function refusedPagePath(request: FastifyRequest): string {
  const namesObject = Object.keys((request.params ?? {}) as object).length > 0;
  return request.method === 'GET' && !namesObject
    ? new URL(request.url, 'http://dashboard.invalid').pathname
    : DASHBOARD_PATH;
}

/** The header of an error page after the guard let the request through, for the signed-in visitor. */
export function signedInFrameOf(request: FastifyRequest): SignedInFrame | undefined {
  const context = (request as { dashboard?: DashboardContext }).dashboard;
  if (context === undefined) return undefined;
  const { userLabel, csrfToken, organizations, organization, unreadNotifications } = context;
  return { userLabel, csrfToken, organizations, organization, unreadNotifications };
}
