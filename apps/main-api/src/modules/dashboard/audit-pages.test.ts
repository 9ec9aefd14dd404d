import { auditEvents } from '@platform/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { recordAuditEvent } from '../audit/index.js';
import { AUDIT_PAGE_SIZE } from './audit-routes.js';

// The Audit log page (docs/decisions.md#dashboard-pages): who did what and when, the filters of the API's list as a
// GET form (days in Nairobi), its cursor pages, and who may read it.

let h: DashboardHarness;
let ownerCookie: string;
let developerCookie: string;
let organizationId: string;
let otherOrganizationId: string;

const OWNER = { sub: 'user_audit_owner', email: 'owner@audit.example.com', givenName: 'Amina', familyName: 'Odhiambo' };
const DEVELOPER = { sub: 'user_audit_dev', email: 'dev@audit.example.com', givenName: 'Baraka', familyName: 'Kiprop' };

/** An event at the moment the test needs (the service stamps now; the log refuses changes). */
async function record(organization: string, action: string, createdAt: string, actor: string | null = OWNER.sub) {
  await h.t.db.insert(auditEvents).values({
    organizationId: organization,
    actorUserId: actor,
    requestId: 'req-1',
    ip: actor === null ? null : '192.0.2.7',
    action,
    targetType: 'user',
    targetId: DEVELOPER.sub,
    details: { from: 'member' },
    createdAt: new Date(createdAt),
  });
}

beforeAll(async () => {
  h = await startDashboardHarness();
  const traders = await h.organizationWith('Audit Traders', { owner: OWNER, developer: DEVELOPER });
  organizationId = traders.id;
  ownerCookie = traders.cookies.owner;
  developerCookie = traders.cookies.developer;
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Elsewhere', members: [] });
  // 2026-03-01 23:30 in Nairobi is 20:30 UTC; 2026-03-02 00:30 in Nairobi is 21:30 UTC on the 1st.
  await record(organizationId, 'member.role_changed', '2026-03-01T20:30:00Z');
  await record(organizationId, 'invitation.created', '2026-03-01T21:30:00Z');
  await record(organizationId, 'subscription.renewed', '2026-03-05T09:00:00Z', null);
  await record(organizationId, 'member.left', '2026-03-06T09:00:00Z', 'user_audit_gone');
  await record(otherOrganizationId, 'api_key.created', '2026-03-02T09:00:00Z');
});
afterAll(async () => {
  await h?.close();
});

const audit = (query: string, cookie = ownerCookie) => h.get(`/dashboard/audit?org=${organizationId}${query}`, cookie);

describe('the Audit log page', () => {
  it('says who did what and when, newest first, and nothing of another organization', async () => {
    const page = await audit('');
    expect(page.statusCode).toBe(200);
    const body = page.body;
    expect(body).toContain('Changed the role of a member');
    expect(body).toContain('Amina Odhiambo');
    expect(body).toContain('from 192.0.2.7');
    expect(body).toContain('The platform');
    expect(body).toContain('A former member (user_audit_gone)');
    expect(body).toContain('subscription.renewed');
    expect(body).toContain('from: member');
    expect(body).toContain('2 Mar 2026, 00:30 EAT');
    expect(body).not.toContain('api_key.created');
    expect(body.indexOf('mono">member.left')).toBeLessThan(body.indexOf('mono">member.role_changed'));
  });

  it('filters by action and by days in Nairobi, the last day included', async () => {
    const byAction = await audit('&action=invitation.created');
    expect(byAction.body).toContain('invitation.created');
    expect(byAction.body).not.toContain('mono">member.role_changed');
    const firstDay = await audit('&from=2026-03-01&to=2026-03-01');
    expect(firstDay.body).toContain('mono">member.role_changed');
    expect(firstDay.body).not.toContain('invitation.created');
    const secondDay = await audit('&from=2026-03-02&to=2026-03-05');
    expect(secondDay.body).toContain('invitation.created');
    expect(secondDay.body).toContain('subscription.renewed');
    expect(secondDay.body).not.toContain('member.left');
    const none = await audit('&action=nothing.happened');
    expect(none.body).toContain('No event matches.');
  });

  it('says what is wrong with a period it cannot take, the filters kept', async () => {
    const badDay = await audit('&from=2026-02-30');
    expect(badDay.statusCode).toBe(400);
    expect(badDay.body).toContain('Write the dates as 2026-03-01.');
    expect(badDay.body).toContain('value="2026-02-30"');
    const backwards = await audit('&from=2026-03-05&to=2026-03-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain('role="alert"');
    const badCursor = await audit('&cursor=bm90LWEtY3Vyc29y');
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.body).toContain('This page link is no longer valid: start again from the first page.');
  });

  it('pages through the log with the cursor, keeping the filters', async () => {
    const paged = await insertOrganization(h.t.db, { name: 'Busy', members: [{ userId: OWNER.sub }] });
    for (let index = 0; index <= AUDIT_PAGE_SIZE; index += 1) {
      await recordAuditEvent(
        h.t.db,
        { actorUserId: OWNER.sub, requestId: null, ip: null },
        { organizationId: paged, action: 'api_key.created', targetType: 'api_key', targetId: `key-${index}` },
      );
    }
    const first = await h.get(`/dashboard/audit?org=${paged}&action=api_key.created`, ownerCookie);
    expect(first.body.match(/key-\d+/g)).toHaveLength(AUDIT_PAGE_SIZE);
    const next = /href="(\/dashboard\/audit\?[^"]*cursor=[^"]+)"/.exec(first.body)?.[1];
    expect(next).toContain('action=api_key.created');
    const second = await h.get((next ?? '').replaceAll('&amp;', '&'), cookieOf(first, ownerCookie));
    expect(second.body.match(/key-\d+/g)).toHaveLength(1);
    expect(second.body).toContain('First page');
  });

  it('is for owners and admins: a developer sees neither the link nor the page', async () => {
    const home = await h.get(`/dashboard?org=${organizationId}`, developerCookie);
    expect(home.body).not.toContain('href="/dashboard/audit"');
    const page = await audit('', developerCookie);
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('owner or admin');
    expect((await h.get(`/dashboard?org=${organizationId}`, ownerCookie)).body).toContain('href="/dashboard/audit"');
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await audit('&lang=sw');
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Alibadilisha jukumu la mwanachama');
    expect(page.body).toContain('Jukwaa lenyewe');
  });
});
