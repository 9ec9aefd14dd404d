import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestsForRoutes } from './requests.js';
import type { RouteUnderTest } from './routes.js';

const route = (url: string): RouteUnderTest => ({ method: 'GET', url, schema: {}, config: {} });

describe('requestsForRoutes path values', () => {
  it('uses the values of the longest matching URL prefix, and pathValues elsewhere', () => {
    const routes = [
      route('/v1/things/:id'),
      route('/v1/organizations/:id'),
      route('/v1/organizations/:id/members/:userId'),
    ];
    const requests = requestsForRoutes(routes, {
      credentials: fc.constant({}),
      clean: { credentials: fc.constant({}) },
      pathValues: { id: fc.constant('thing-1') },
      pathValuesUnder: {
        '/v1/organizations/:id': { id: fc.constant('org-1') },
        '/v1/organizations/:id/members': { id: fc.constant('org-2'), userId: fc.constant('user-1') },
      },
    });
    const urls = new Map<string, Set<string>>();
    for (const request of fc.sample(requests, { numRuns: 3_000, seed: 1 })) {
      const seen = urls.get(request.route) ?? new Set<string>();
      seen.add(request.url.split('?')[0] ?? '');
      urls.set(request.route, seen);
    }
    expect(urls.get('GET /v1/things/:id')).toContain('/v1/things/thing-1');
    expect(urls.get('GET /v1/organizations/:id')).toContain('/v1/organizations/org-1');
    expect(urls.get('GET /v1/organizations/:id/members/:userId')).toContain('/v1/organizations/org-2/members/user-1');
    const known = (route: string) => [...(urls.get(route) ?? [])].filter((url) => /thing-1|org-1|org-2/.test(url));
    expect(known('GET /v1/things/:id').every((url) => url.includes('thing-1'))).toBe(true);
    expect(known('GET /v1/organizations/:id').every((url) => url.includes('org-1'))).toBe(true);
    expect(known('GET /v1/organizations/:id/members/:userId').every((url) => url.includes('org-2'))).toBe(true);
  });
});
