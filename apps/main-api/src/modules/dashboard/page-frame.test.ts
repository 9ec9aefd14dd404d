import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { insertPendingSession } from '../../../test/verification-session-fixtures.js';

// The frame around the pages (docs/decisions.md#dashboard-pages): the test/live toggle only on the pages whose data
// is of one environment, and the signed-in header on the guard's 403 and 404 pages, which still say nothing of
// another organization.

let h: DashboardHarness;
let ownerCookie: string;
let billingCookie: string;
let organizationId: string;
let otherOrganizationId: string;
let otherSessionId: string;

const OWNER = { sub: 'user_frame_owner', email: 'owner@frame.example.com', givenName: 'Wanjiru', familyName: 'Kamau' };
const BILLING = {
  sub: 'user_frame_billing',
  email: 'billing@frame.example.com',
  givenName: 'Otieno',
  familyName: 'Ouma',
};

beforeAll(async () => {
  h = await startDashboardHarness();
  ownerCookie = await h.signIn(OWNER);
  billingCookie = await h.signIn(BILLING);
  organizationId = await insertOrganization(h.t.db, {
    name: 'Frame Traders',
    members: [
      { userId: OWNER.sub, role: 'owner' },
      { userId: BILLING.sub, role: 'billing' },
    ],
  });
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Hidden Holdings', members: [] });
  otherSessionId = await insertPendingSession(h.t.db, {
    organizationId: otherOrganizationId,
    externalEndUserId: 'hidden-borrower',
  });
});
afterAll(async () => {
  await h?.close();
});

const TOGGLE = 'aria-label="Data shown"';
const BANNER = 'You are looking at test data';

describe('the test/live toggle', () => {
  // Written out here, not read from nav.ts: a page added to or dropped from the set must change this test too.
  const withToggle = [
    '/dashboard/verifications',
    '/dashboard/developers',
    '/dashboard/developers/webhooks',
    '/dashboard/developers/events',
    '/dashboard/developers/origins',
    '/dashboard/billing/wallet',
    '/dashboard/billing/payment-methods',
  ];

  it('shows on the pages whose data is of one environment, with its banner, and on no other page', async () => {
    const pages = h.t.app.registeredRoutes
      .filter(({ method, config }) => method === 'GET' && config['dashboardPage'] !== undefined)
      .map(({ url }) => url)
      .filter((url) => !url.includes(':') && !url.endsWith('.csv') && url !== '/dashboard/profile/new');
    expect(pages).toEqual(expect.arrayContaining([...withToggle, '/dashboard', '/dashboard/team']));
    const wrong: string[] = [];
    for (const path of pages) {
      const page = await h.get(`${path}?org=${organizationId}&env=test`, ownerCookie);
      if (page.statusCode !== 200) {
        wrong.push(`${path}: ${page.statusCode}`);
        continue;
      }
      const expected = withToggle.includes(path);
      if (page.body.includes(TOGGLE) !== expected) wrong.push(`${path}: toggle ${!expected}`);
      if (page.body.includes(BANNER) !== expected) wrong.push(`${path}: banner ${!expected}`);
      if (expected && !page.body.includes(`<a href="${path}?env=live"`)) wrong.push(`${path}: no link to live`);
    }
    expect(wrong).toEqual([]);
  });

  it("is not on a session's page, which shows the session's own environment whatever the toggle says", async () => {
    const id = await insertPendingSession(h.t.db, { organizationId, externalEndUserId: 'frame-borrower' });
    const page = await h.get(`/dashboard/verifications/${id}?org=${organizationId}&env=live`, ownerCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('frame-borrower');
    expect(page.body).not.toContain(TOGGLE);
  });

  it('keeps the choice made on one page for the next page that has the toggle', async () => {
    const live = await h.get(`/dashboard/developers?org=${organizationId}&env=live`, ownerCookie);
    const team = await h.get(`/dashboard/team?org=${organizationId}`, cookieOf(live, ownerCookie));
    expect(team.body).not.toContain(TOGGLE);
    const wallet = await h.get(`/dashboard/billing/wallet?org=${organizationId}`, cookieOf(team, cookieOf(live)));
    expect(wallet.body).toContain('<a href="/dashboard/billing/wallet?env=live" aria-current="true"');
    expect(wallet.body).not.toContain(BANNER);
  });
});

/** The page without its form tokens, which differ on every answer. */
const withoutTokens = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf"');

describe("the guard's refusals, signed in", () => {
  it('answers a role without the permission with the 403 page in the signed-in header', async () => {
    const page = await h.get(`/dashboard/audit?org=${organizationId}`, billingCookie);
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('owner or admin');
    expect(page.body).toContain('Signed in as <strong>Otieno Ouma</strong>');
    expect(page.body).toContain('<form method="post" action="/logout"');
    expect(page.body).toContain('aria-label="Dashboard"');
    // The navigation lists what the role may open, not the page refused; the organization shown is theirs.
    expect(page.body).toContain('href="/dashboard/billing"');
    expect(page.body).not.toContain('href="/dashboard/audit"');
    expect(page.body).toContain('Frame Traders');
    expect(page.body).not.toContain(TOGGLE);
    // The language links show the same answer in the other language.
    expect(page.body).toContain('href="/dashboard/audit?lang=sw"');
  });

  it('says it in Kiswahili, header and all', async () => {
    const page = await h.get(`/dashboard/audit?org=${organizationId}&lang=sw`, billingCookie);
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('action="/logout"');
  });

  it("answers another organization like one that does not exist, with the header of the visitor's own", async () => {
    const other = await h.get(`/dashboard/team?org=${otherOrganizationId}`, ownerCookie);
    const unknown = await h.get('/dashboard/team?org=5f0c1a5e-0000-4000-8000-000000000000', ownerCookie);
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(other.body).toContain('<form method="post" action="/logout"');
    expect(other.body).toContain('Frame Traders');
    expect(other.body).not.toContain('Hidden Holdings');
    expect(withoutTokens(other.body)).toBe(withoutTokens(unknown.body));
  });

  it("answers another organization's object like one that does not exist, with the header", async () => {
    const path = (id: string) => `/dashboard/verifications/${id}`;
    const other = await h.get(`${path(otherSessionId)}?org=${organizationId}`, ownerCookie);
    const unknown = await h.get(`${path('5f0c1a5e-0000-4000-8000-000000000000')}?org=${organizationId}`, ownerCookie);
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(other.body).toContain('<form method="post" action="/logout"');
    expect(other.body).not.toContain('hidden-borrower');
    expect(other.body).not.toContain(otherSessionId);
    expect(withoutTokens(other.body)).toBe(withoutTokens(unknown.body));
  });
});
