import { compareRoutesWithOpenApi } from '@platform/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, startBillingApp } from '../../test/billing-fixtures.js';
import { fakeDarajaEnv } from '../../test/fake-daraja.js';
import { FAKE_PAYSTACK_SECRET } from '../../test/fake-paystack.js';

// OWASP API9 (inventory): what the service answers and what /openapi.json documents are the same set, except
// these, left out on purpose. Provider callbacks and HTML pages are documented like the rest.
const UNDOCUMENTED = [
  'GET /openapi.json', // the document itself
  'GET /metrics', // Prometheus scrape, for operators
  'OPTIONS *', // CORS preflight answers
];

// Nothing listens there: the providers are configured so that their routes are registered, and never called.
const NOWHERE = 'http://127.0.0.1:9';

// Which routes exist depends on the payment providers configured: the sandbox checkout stands in for Paystack
// when it has no credentials, and the M-Pesa callback exists only with Daraja. Both shapes are checked.
const configurations = [
  {
    name: 'sandbox card checkout, Daraja',
    env: fakeDarajaEnv(NOWHERE),
    present: [
      'GET /v1/billing/sandbox/checkout/:reference',
      'POST /v1/billing/sandbox/checkout/:reference',
      'POST /v1/billing/webhooks/mpesa/:token',
    ],
    absent: ['POST /v1/billing/webhooks/paystack'],
  },
  {
    name: 'Paystack, Daraja',
    env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: NOWHERE, ...fakeDarajaEnv(NOWHERE) },
    present: ['POST /v1/billing/webhooks/paystack', 'POST /v1/billing/webhooks/mpesa/:token'],
    absent: ['GET /v1/billing/sandbox/checkout/:reference', 'POST /v1/billing/sandbox/checkout/:reference'],
  },
];

describe.each(configurations)('route inventory (main-api with $name)', ({ env, present, absent }) => {
  let t: BillingTestApp;

  beforeAll(async () => {
    t = await startBillingApp({ env });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents every route it serves, but the listed ones, and serves every documented one', async () => {
    const { notDocumented, notServed } = await compareRoutesWithOpenApi(t.app);
    expect(notDocumented.sort()).toEqual([...UNDOCUMENTED].sort());
    expect(notServed).toEqual([]);
  });

  it("counts this configuration's provider routes and the public avatar files among the routes it checks", () => {
    const routes = t.app.registeredRoutes.map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(expect.arrayContaining([...present, 'GET /v1/files/*']));
    for (const route of absent) expect(routes).not.toContain(route);
  });
});
