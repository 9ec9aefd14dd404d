import type { BilingualKey } from '@platform/templates';
import type { Permission } from '../../organizations/index.js';

// Where the dashboard lives, and the pages its navigation lists (docs/decisions.md#dashboard-sign-in). The header
// links only to pages that exist: a page adds its entry here when it is built (Verifications, Developers, Billing,
// Team, Audit log, Notifications, Profile and Settings have their labels in the catalog already).

export const DASHBOARD_PATH = '/dashboard';
export const LOGIN_PATH = '/login';
export const LOGIN_CALLBACK_PATH = '/login/callback';
export const LOGOUT_PATH = '/logout';
/**
 * Where the identity provider sends the browser back after ending its session (`post_logout_redirect_uri`, registered
 * with the provider as written, query and all): the sign-in page saying you are signed out.
 */
export const SIGNED_OUT_PATH = `${LOGIN_PATH}?notice=signed_out`;

export interface DashboardNavItem {
  /** Its label in both catalogs. */
  label: BilingualKey;
  path: string;
  /** The permission the page needs (as its route's rule): a role without it is not shown the link. */
  requires?: Permission;
}

export const VERIFICATIONS_PATH = `${DASHBOARD_PATH}/verifications`;
export const BILLING_PATH = `${DASHBOARD_PATH}/billing`;
export const BILLING_PLAN_PATH = `${BILLING_PATH}/plan`;
export const BILLING_WALLET_PATH = `${BILLING_PATH}/wallet`;
export const BILLING_METHODS_PATH = `${BILLING_PATH}/payment-methods`;
export const BILLING_PAYMENTS_PATH = `${BILLING_PATH}/payments`;
export const DEVELOPERS_PATH = `${DASHBOARD_PATH}/developers`;
export const WEBHOOK_ENDPOINT_PATH = `${DEVELOPERS_PATH}/webhooks`;
export const DELIVERY_LOG_PATH = `${DEVELOPERS_PATH}/events`;
export const ALLOWED_ORIGINS_PATH = `${DEVELOPERS_PATH}/origins`;
export const PROFILE_PATH = `${DASHBOARD_PATH}/profile`;
/** The "complete your profile" form, for a user signed in without one (not in the navigation). */
export const NEW_PROFILE_PATH = `${PROFILE_PATH}/new`;
export const SETTINGS_PATH = `${DASHBOARD_PATH}/settings`;
export const TEAM_PATH = `${DASHBOARD_PATH}/team`;
export const AUDIT_PATH = `${DASHBOARD_PATH}/audit`;
export const NOTIFICATIONS_PATH = `${DASHBOARD_PATH}/notifications`;
/** Pages reached from Home, an email and the Developers page, not from the navigation. */
export const ORGANIZATION_NEW_PATH = `${DASHBOARD_PATH}/organizations/new`;
export const ACTIVATION_PATH = `${DASHBOARD_PATH}/activation`;

export const dashboardNav: readonly DashboardNavItem[] = [
  { label: 'dashboard.nav.home', path: DASHBOARD_PATH },
  { label: 'dashboard.nav.verifications', path: VERIFICATIONS_PATH, requires: 'verifications:read' },
  { label: 'dashboard.nav.developers', path: DEVELOPERS_PATH, requires: 'organization:read' },
  { label: 'dashboard.nav.billing', path: BILLING_PATH, requires: 'organization:read' },
  { label: 'dashboard.nav.team', path: TEAM_PATH, requires: 'organization:read' },
  { label: 'dashboard.nav.audit', path: AUDIT_PATH, requires: 'audit:read' },
  { label: 'dashboard.nav.notifications', path: NOTIFICATIONS_PATH },
  { label: 'dashboard.nav.profile', path: PROFILE_PATH },
  { label: 'dashboard.nav.settings', path: SETTINGS_PATH, requires: 'organization:read' },
];

/**
 * The pages whose data is of one environment, test or live, chosen by the toggle (docs/decisions.md#dashboard-pages):
 * only they show the toggle and the test-data banner. The others show data that has no environment (Home's both
 * balances, Team, Audit log, Notifications, Profile, Settings, the subscription, payments, going live, an
 * invitation), or one object of its own environment (a session, an event), which the toggle would not change.
 * Payment methods has it: adding one is a live top-up, offered on live data only.
 */
const pagesWithEnvironment: ReadonlySet<string> = new Set([
  VERIFICATIONS_PATH,
  DEVELOPERS_PATH,
  WEBHOOK_ENDPOINT_PATH,
  DELIVERY_LOG_PATH,
  ALLOWED_ORIGINS_PATH,
  BILLING_WALLET_PATH,
  BILLING_METHODS_PATH,
]);

/** Whether the page at this path (its own, as the frame is given it) shows the test/live toggle. */
export const showsEnvironment = (path: string): boolean => pagesWithEnvironment.has(path);
