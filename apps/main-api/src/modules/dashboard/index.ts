// The customers' dashboard: sign-in through the identity provider, sessions kept on the server, the pages' frame and
// Home (docs/decisions.md#dashboard-sign-in).

export { type DashboardConfig, DashboardEnvSchema, dashboardConfigFrom } from './config.js';
export { BILLING_PAYMENTS_PATH as DASHBOARD_PAYMENTS_PATH } from './pages/nav.js';
export { dashboardRoutes } from './routes.js';
export { openSignedInCookie, type SignedInCookieInput } from './signed-in-cookie.js';
