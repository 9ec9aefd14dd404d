import type { FuzzRequest, RouteUnderTest } from '@platform/http/testing';
import { MPESA_CALLBACK_PATH } from '../../src/modules/billing/providers/daraja/routes.js';
import { PAYSTACK_WEBHOOK_PATH } from '../../src/modules/billing/providers/paystack/routes.js';
import { DASHBOARD_PATH, LOGIN_PATH, LOGOUT_PATH } from '../../src/modules/dashboard/pages/nav.js';
import { FAKE_DARAJA } from '../fake-daraja.js';

export function routeName(route: RouteUnderTest): string {
  return `${route.method} ${route.url}`;
}

/** The API documentation is served by a plugin, not by the service's handlers. */
export function isDocumentation(route: RouteUnderTest): boolean {
  return route.url === '/docs' || route.url.startsWith('/docs/') || route.url === '/openapi.json' || route.url === '*';
}

/** Pages for a payer's browser answer their errors as HTML pages, not the envelope. */
const browserPages = new Set([
  'GET /v1/billing/checkout/complete',
  'GET /v1/billing/sandbox/checkout/:reference',
  'POST /v1/billing/sandbox/checkout/:reference',
]);

/** The reviewer console's pages and forms: signed in by cookie, fuzzed on their own with one. */
export function isReviewConsole(route: RouteUnderTest | FuzzRequest): boolean {
  const path = 'url' in route && !('route' in route) ? route.url : ((route as FuzzRequest).route.split(' ')[1] ?? '');
  return path === '/review' || path.startsWith('/review/');
}

/** The finance staff's routes: fuzzed on their own, with a finance member's token (the member reviews). */
export function isFinanceRoute(route: RouteUnderTest): boolean {
  return route.url.startsWith('/v1/finance/');
}

/** The platform operators' routes (owners and admins of the platform organization): fuzzed on their own, with an admin's token. */
export function isPlatformOperatorRoute(route: RouteUnderTest): boolean {
  return route.url.startsWith('/v1/review-console/');
}

/** The customers' dashboard: its errors are pages in the browser, as the console's are. */
function isDashboard(request: FuzzRequest): boolean {
  const path = request.route.split(' ')[1] ?? '';
  return (
    path === '/' ||
    [DASHBOARD_PATH, LOGIN_PATH, LOGOUT_PATH].some((page) => path === page || path.startsWith(`${page}/`))
  );
}

export function isBrowserPage(request: FuzzRequest, contentType: unknown): boolean {
  return (
    (browserPages.has(request.route) || isReviewConsole(request) || isDashboard(request)) &&
    String(contentType).startsWith('text/html')
  );
}

/** A provider callback nobody could have sent legitimately: an unsigned Paystack event or the wrong M-Pesa token. */
export function isForgedCallback(request: FuzzRequest): boolean {
  if (request.route === `POST ${PAYSTACK_WEBHOOK_PATH}`) return true;
  return (
    request.url.startsWith(`${MPESA_CALLBACK_PATH}/`) &&
    !request.url.startsWith(`${MPESA_CALLBACK_PATH}/${FAKE_DARAJA.callbackToken}`)
  );
}
