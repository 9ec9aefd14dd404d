import type { BilingualKey } from '@platform/templates';
import type { Permission } from '../../organizations/index.js';

// Where the dashboard lives, and the pages its navigation lists (docs/decisions.md#dashboard-sign-in). The header
// links only to pages that exist: a page adds its entry here when it is built (Verifications, Developers, Billing,
// Team, Audit log, Notifications, Profile and Settings have their labels in the catalog already).

export const DASHBOARD_PATH = '/dashboard';
export const LOGIN_PATH = '/login';
export const LOGIN_CALLBACK_PATH = '/login/callback';
export const LOGOUT_PATH = '/logout';

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
/** Another page's (the activation's): where live top-ups say to go while they are locked. */
export const ACTIVATION_PATH = `${DASHBOARD_PATH}/activation`;

export const dashboardNav: readonly DashboardNavItem[] = [
  { label: 'dashboard.nav.home', path: DASHBOARD_PATH },
  { label: 'dashboard.nav.verifications', path: VERIFICATIONS_PATH, requires: 'verifications:read' },
  { label: 'dashboard.nav.billing', path: BILLING_PATH, requires: 'organization:read' },
];
