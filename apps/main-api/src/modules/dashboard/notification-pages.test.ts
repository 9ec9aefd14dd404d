import { notifications } from '@platform/db/schema';
import { notifyUser } from '@platform/notifications';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { dashboardLinkOf } from './pages/notifications.js';

// The notifications inbox (docs/decisions.md#dashboard-pages): the user's own, each naming the organization it
// concerns and opening its dashboard page with that organization chosen; read one, read all.

let h: DashboardHarness;
let cookie: string;
let otherCookie: string;
let organizationId: string;
let goneOrganizationId: string;

const USER = { sub: 'user_inbox_zawadi', email: 'zawadi@inbox.example.com', givenName: 'Zawadi', familyName: 'Otieno' };
const OTHER = { sub: 'user_inbox_other', email: 'other@inbox.example.com', givenName: 'Other', familyName: 'Person' };

beforeAll(async () => {
  h = await startDashboardHarness();
  const traders = await h.organizationWith('Inbox Traders', { owner: USER });
  organizationId = traders.id;
  cookie = traders.cookies.owner;
  otherCookie = await h.signIn(OTHER);
  goneOrganizationId = await insertOrganization(h.t.db, { name: 'Left Behind Ltd', members: [] });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.t.db.delete(notifications);
});

const notify = (title: string, extra: { organizationId?: string; actionUrl?: string; userId?: string } = {}) =>
  notifyUser(h.t.db, { userId: USER.sub, title, message: `About ${title}`, type: 'info', ...extra });
const readAtOf = async (id: string) =>
  (await h.t.db.select().from(notifications).where(eq(notifications.id, id)))[0]?.readAt ?? null;

describe('the notifications inbox', () => {
  it("lists the user's own, naming the organization each concerns, its link with that organization chosen", async () => {
    await notify('Team news', { organizationId, actionUrl: '/dashboard/team' });
    await notify('Old news', { organizationId: goneOrganizationId, actionUrl: '/dashboard/billing' });
    await notify('API path', { actionUrl: '/v1/organizations/x/activation' });
    await notify('Not mine', { userId: OTHER.sub });
    const page = await h.get('/dashboard/notifications', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Team news');
    expect(page.body).toContain('About Inbox Traders');
    expect(page.body).toContain(`href="/dashboard/team?org=${organizationId}"`);
    expect(page.body).toContain('About an organization you no longer belong to');
    expect(page.body).not.toContain('Left Behind Ltd');
    expect(page.body).toContain('href="/dashboard/billing"');
    expect(page.body).not.toContain('/v1/organizations/x/activation');
    expect(page.body).not.toContain('Not mine');
    expect(page.body).toContain('Unread: 3');
    // The header counts them on every page.
    const home = await h.get('/dashboard', cookie);
    expect(home.body).toContain('<span class="badge" aria-hidden="true">3</span><span class="vh">3 unread</span>');
    expect(page.body).toContain('aria-current="page">Notifications');
  });

  it('marks one read, then all, read back from the store', async () => {
    const first = await notify('First');
    const second = await notify('Second');
    const read = await h.post(`/dashboard/notifications/${first.id}/read`, cookie, {}, '/dashboard/notifications');
    expect(read.statusCode).toBe(303);
    expect(read.headers.location).toBe('/dashboard/notifications?notice=read');
    expect(await readAtOf(first.id)).not.toBeNull();
    expect(await readAtOf(second.id)).toBeNull();
    const page = await h.get('/dashboard/notifications?notice=read', cookie);
    expect(page.body).toContain('The notification is marked as read.');
    expect(page.body).toContain('Unread: 1');

    const all = await h.post('/dashboard/notifications/read-all', cookie, {}, '/dashboard/notifications');
    expect(all.statusCode).toBe(303);
    expect(await readAtOf(second.id)).not.toBeNull();
    const after = await h.get('/dashboard/notifications?notice=readAll', cookie);
    expect(after.body).toContain('Unread: 0');
    expect(after.body).not.toContain('class="badge"');
    expect(after.body).not.toContain('Mark all as read');
  });

  it("answers another user's notification, an unknown id and a malformed one with the 404 page", async () => {
    const theirs = await notify('Theirs', { userId: OTHER.sub });
    for (const id of [theirs.id, '5f0c1a5e-0000-4000-8000-000000000000', 'not-an-id']) {
      const answer = await h.post(`/dashboard/notifications/${id}/read`, cookie, {}, '/dashboard/notifications');
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-type']).toContain('text/html');
    }
    expect(await readAtOf(theirs.id)).toBeNull();
    expect((await h.get('/dashboard/notifications', otherCookie)).body).toContain('Theirs');
  });

  it('says when there is nothing, and speaks Kiswahili when asked', async () => {
    const empty = await h.get('/dashboard/notifications?lang=sw', cookie);
    expect(empty.body).toContain('<html lang="sw"');
    expect(empty.body).toContain('Huna arifa yoyote.');
    await notify('Habari');
    expect((await h.get('/dashboard/notifications?lang=sw', cookie)).body).toContain('Weka kuwa imesomwa');
  });
});

describe('a notification link', () => {
  const organization = { id: 'a7c1b0de-0000-4000-8000-000000000001', name: 'X', role: 'owner' as const };
  it('opens only dashboard pages, choosing the organization it concerns', () => {
    expect(dashboardLinkOf('/dashboard/activation', organization)).toBe(`/dashboard/activation?org=${organization.id}`);
    expect(dashboardLinkOf('/dashboard/verifications?type=kyc', organization)).toBe(
      `/dashboard/verifications?type=kyc&org=${organization.id}`,
    );
    expect(dashboardLinkOf('/dashboard/invitations/abc', undefined)).toBe('/dashboard/invitations/abc');
    for (const other of ['/v1/billing/payments/x/receipt', 'https://evil.example/dashboard', '//evil.example', null]) {
      expect(dashboardLinkOf(other, organization)).toBeNull();
    }
    expect(dashboardLinkOf('/dashboardx', organization)).toBeNull();
  });
});
