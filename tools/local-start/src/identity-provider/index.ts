// The local start's identity provider (docs/decisions.md#dashboard-sign-in), for the local start and the browser
// journeys of tools/e2e; never deployed.

export { type AccountBook, accountBookOf } from './accounts.js';
export { API_SCOPE, DASHBOARD_CLIENT_ID, type LocalIdentityProvider, startLocalIdentityProvider } from './provider.js';
