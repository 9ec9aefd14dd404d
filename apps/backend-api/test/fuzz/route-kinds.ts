import type { FuzzRequest, RouteUnderTest } from '@platform/http/testing';

export function routeName(route: RouteUnderTest): string {
  return `${route.method} ${route.url}`;
}

/** The API documentation is served by a plugin, not by the service's handlers. */
export function isDocumentation(route: RouteUnderTest): boolean {
  return route.url === '/docs' || route.url.startsWith('/docs/') || route.url === '/openapi.json' || route.url === '*';
}

/** The hosted verification page is for the end user's browser: its errors are HTML pages, not the envelope. */
const browserPages = new Set(['GET /session/:id', 'POST /session/:id', 'POST /session/:id/documents']);

export function isBrowserPage(request: FuzzRequest, contentType: unknown): boolean {
  return browserPages.has(request.route) && String(contentType).startsWith('text/html');
}
