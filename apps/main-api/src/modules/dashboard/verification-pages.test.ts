import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import {
  auditEventsOf,
  insertPendingSession,
  moveTestSession,
  recordAttempts,
} from '../../../test/verification-session-fixtures.js';
import { VERIFICATIONS_PAGE_SIZE } from './verifications-routes.js';

// The Verifications pages (docs/decisions.md#dashboard-pages) as a signed-in browser meets them: the environment
// shown, filters and cursor pages, a session's timeline, callbacks and decision, the cancel, and the role policy.

let h: DashboardHarness;
let ownerCookie: string;
let organizationId: string;
let otherOrganizationId: string;
let decidedId: string;
let liveId: string;
let otherSessionId: string;

const OWNER = { sub: 'user_wanjiku', email: 'wanjiku@example.com', givenName: 'Wanjiku', familyName: 'Kamau' };
const BILLING = { sub: 'user_otieno', email: 'otieno@example.com', givenName: 'Otieno', familyName: 'Odhiambo' };

beforeAll(async () => {
  h = await startDashboardHarness();
  const duka = await h.organizationWith('Duka Lending', { owner: OWNER, billing: BILLING });
  organizationId = duka.id;
  ownerCookie = duka.cookies.owner;
  expect(duka.cookies.billing).not.toBe('');
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Other Ltd' });
  decidedId = await insertPendingSession(h.t.db, { organizationId, externalEndUserId: 'borrower-42' });
  await moveTestSession(h.t.db, decidedId, { to: 'processing', actor: 'hosted_page' });
  await moveTestSession(h.t.db, decidedId, { to: 'rejected', actor: 'reviewer:rev-1', reason: 'The photo is blurred' });
  await recordAttempts(h.t.db, 'verification_session.created', decidedId, [
    { responseStatus: 500, at: new Date() },
    { responseStatus: 200, at: new Date() },
  ]);
  liveId = await insertPendingSession(h.t.db, { organizationId, environment: 'live', externalEndUserId: 'live-one' });
  otherSessionId = await insertPendingSession(h.t.db, { organizationId: otherOrganizationId });
});
afterAll(async () => {
  await h?.close();
});

describe('the Verifications list', () => {
  it('sends a browser without a session to sign in, and back to the page after it', async () => {
    const first = await h.t.app.inject({ method: 'GET', url: '/dashboard/verifications?status=rejected' });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/login');
    const back = await h.signInWith(OWNER, cookieOf(first));
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/dashboard/verifications?status=rejected');
  });

  it("lists the test sessions of the organization shown, not its live ones nor another organization's", async () => {
    const page = await h.get('/dashboard/verifications', ownerCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('borrower-42');
    expect(page.body).not.toContain('live-one');
    expect(page.body).not.toContain(otherSessionId);
    expect(page.body).toContain('Duka Lending');
    expect(page.body).toContain('You are looking at test data');
    expect(page.body).toContain('<a href="/dashboard/verifications?env=live"');

    const live = await h.get('/dashboard/verifications?env=live', ownerCookie);
    expect(live.body).toContain('live-one');
    expect(live.body).not.toContain('borrower-42');
    expect(live.body).not.toContain('You are looking at test data');
    // The choice is kept: the next page shows live data too.
    const kept = await h.get('/dashboard/verifications', cookieOf(live, ownerCookie));
    expect(kept.body).toContain('live-one');
    expect(liveId).toBeTruthy();
  });

  it('filters by status and end user, and says what is wrong with a period it cannot take', async () => {
    const rejected = await h.get('/dashboard/verifications?env=test&status=rejected', ownerCookie);
    expect(rejected.body).toContain('borrower-42');
    const pending = await h.get('/dashboard/verifications?env=test&status=pending', ownerCookie);
    expect(pending.body).not.toContain('borrower-42');
    const byUser = await h.get('/dashboard/verifications?env=test&externalEndUserId=nobody', ownerCookie);
    expect(byUser.body).toContain('No session matches');
    const badPeriod = await h.get('/dashboard/verifications?env=test&from=2026-13-45', ownerCookie);
    expect(badPeriod.statusCode).toBe(400);
    expect(badPeriod.body).toContain('role="alert"');
    expect(badPeriod.body).toContain('value="2026-13-45"');
    expect(badPeriod.body).toContain('Write each date as 2026-03-01, a day in Nairobi time.');
    const backwards = await h.get(
      '/dashboard/verifications?env=test&from=2026-03-05&to=2026-03-01&lang=sw',
      ownerCookie,
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain('tarehe ya &quot;kuanzia&quot; lazima itangulie tarehe ya &quot;hadi&quot;');
    const badStatus = await h.get('/dashboard/verifications?env=test&status=%3Cscript%3E', ownerCookie);
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.body).not.toContain('<script>');
  });

  it('pages through the sessions with the cursor, keeping the filters', async () => {
    const pagedId = await insertOrganization(h.t.db, { name: 'Many Sessions', members: [{ userId: OWNER.sub }] });
    for (let index = 0; index <= VERIFICATIONS_PAGE_SIZE; index += 1) {
      await insertPendingSession(h.t.db, {
        organizationId: pagedId,
        externalEndUserId: `paged-${index}`,
        createdAt: new Date(Date.UTC(2026, 10, 1, 0, index)),
      });
    }
    const first = await h.get(`/dashboard/verifications?env=test&org=${pagedId}&type=kyc`, ownerCookie);
    expect(first.statusCode).toBe(200);
    expect(first.body.match(/paged-\d+/g)).toHaveLength(VERIFICATIONS_PAGE_SIZE);
    const next = /href="(\/dashboard\/verifications\?[^"]*cursor=[^"]+)"/.exec(first.body)?.[1];
    expect(next).toContain('type=kyc');
    const second = await h.get((next ?? '').replaceAll('&amp;', '&'), cookieOf(first, ownerCookie));
    expect(second.body.match(/paged-\d+/g)).toEqual(['paged-0']);
    expect(second.body).toContain('First page');
  });
});

describe('one verification session', () => {
  it('shows its facts, decision, timeline and callbacks with each try', async () => {
    const page = await h.get(`/dashboard/verifications/${decidedId}?org=${organizationId}`, ownerCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(decidedId);
    expect(page.body).toContain('Rejected');
    expect(page.body).toContain('The photo is blurred');
    expect(page.body).toContain('by a reviewer');
    expect(page.body).toContain('verification_session.created');
    expect(page.body).toContain('HTTP 500');
    expect(page.body).toContain('HTTP 200');
    // Final: nothing to cancel.
    expect(page.body).not.toContain('Cancel this session');
  });

  it("answers another organization's session, an unknown one and a malformed id with the same 404", async () => {
    for (const id of [otherSessionId, '5f0c1a5e-0000-4000-8000-000000000000', 'not-a-session']) {
      const page = await h.get(`/dashboard/verifications/${id}?org=${organizationId}`, ownerCookie);
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
    }
  });

  it('cancels a pending session once, from its form with the form token', async () => {
    const id = await insertPendingSession(h.t.db, { organizationId, externalEndUserId: 'to-cancel' });
    const from = `/dashboard/verifications/${id}?org=${organizationId}`;
    expect((await h.get(from, ownerCookie)).body).toContain('Cancel this session');
    const noToken = await h.t.app.inject({
      method: 'POST',
      url: `/dashboard/verifications/${id}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ownerCookie },
      payload: '',
    });
    expect(noToken.statusCode).toBe(403);
    const canceled = await h.post(`/dashboard/verifications/${id}/cancel`, ownerCookie, {}, from);
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`/dashboard/verifications/${id}?notice=canceled`);
    const after = await h.get(`${String(canceled.headers.location)}&org=${organizationId}`, ownerCookie);
    expect(after.body).toContain('The session is canceled');
    expect(await auditEventsOf(h.t.db, organizationId, 'verification_session.canceled')).toHaveLength(1);
    const again = await h.post(`/dashboard/verifications/${id}/cancel`, ownerCookie, {}, from);
    expect(again.statusCode).toBe(409);
    expect(await auditEventsOf(h.t.db, organizationId, 'verification_session.canceled')).toHaveLength(1);
  });
});

describe('who sees the Verifications pages', () => {
  it('shows a billing member neither the link nor the page, and says which roles may', async () => {
    const cookie = await h.signIn(BILLING);
    const home = await h.get(`/dashboard?org=${organizationId}`, cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain('href="/dashboard/verifications"');
    const page = await h.get('/dashboard/verifications', cookieOf(home, cookie));
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('owner, admin or developer');
    const ownerHome = await h.get(`/dashboard?org=${organizationId}`, ownerCookie);
    expect(ownerHome.body).toContain('href="/dashboard/verifications"');
  });

  it('answers an organization the user is not a member of with a 404 page', async () => {
    const page = await h.get(`/dashboard/verifications?org=${otherOrganizationId}`, ownerCookie);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Other Ltd');
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await h.get(`/dashboard/verifications?org=${organizationId}&lang=sw`, ownerCookie);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Chuja vipindi');
  });
});
