import { compareRoutesWithOpenApi } from '@platform/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingApp, type BillingTestApp } from '../../test/billing-fixtures.js';
import { fakeDarajaEnv } from '../../test/fake-daraja.js';

// OWASP API9 (inventory): what the service answers and what /openapi.json documents are the same set, except
// these, left out on purpose. Provider callbacks and HTML pages are documented like the rest.
const UNDOCUMENTED = [
  'GET /openapi.json', // the document itself
  'GET /metrics', // Prometheus scrape, for operators
  'OPTIONS *', // CORS preflight answers
];

let t: BillingTestApp;

beforeAll(async () => {
  // Daraja configured (never called here), so its callback route is registered too.
  t = await startBillingApp({ env: fakeDarajaEnv('http://127.0.0.1:9') });
});
afterAll(async () => {
  await t?.close();
});

describe('route inventory (main-api)', () => {
  it('documents every route it serves, but the listed ones, and serves every documented one', async () => {
    const { notDocumented, notServed } = await compareRoutesWithOpenApi(t.app);
    expect(notDocumented.sort()).toEqual([...UNDOCUMENTED].sort());
    expect(notServed).toEqual([]);
  });

  it('counts the M-Pesa callback and the sandbox checkout among the routes it checks', () => {
    const routes = t.app.registeredRoutes.map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /v1/billing/webhooks/mpesa/:token', 'GET /v1/files/*']));
  });
});
