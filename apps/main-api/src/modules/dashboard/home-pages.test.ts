import { webhookEvents } from '@platform/db/schema';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELLER_WITH_BANK } from '../../../test/bank-transfer-fixtures.js';
import { LARGE_TOP_UP } from '../../../test/bank-transfer-suite.js';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization, insertUser } from '../../../test/helpers.js';
import { insertSubscription } from '../../../test/subscription-fixtures.js';
import { insertPendingSession } from '../../../test/verification-session-fixtures.js';
import { insertInvitation } from '../organizations/index.js';
import { updateLowBalanceThreshold } from '../wallets/index.js';

// Home's attention items (docs/decisions.md#dashboard-pages) as a signed-in browser meets them: the balances with
// their low-balance state, the subscription, and each thing that needs attention as a link to the page that deals
// with it; the organization shown only; the invitations addressed to the user; Kiswahili.

let h: DashboardHarness;
let cookie: string;
let busyId: string;
let lockedId: string;
let quietId: string;
let invitationToYou: string;

const WANGARI = {
  sub: 'user_home_wangari',
  email: 'wangari@home.example',
  givenName: 'Wangari',
  familyName: 'Maathai',
};
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  h = await startDashboardHarness({ env: { ...SELLER_WITH_BANK, MAX_AMOUNT_BANK_TRANSFER: '5000000' } });
  cookie = await h.signIn(WANGARI);
  const { db } = h.t;
  await insertUser(db, { id: 'user_home_other', email: 'other@home.example' });
  const member = [{ userId: WANGARI.sub, role: 'owner' as const }];
  quietId = await insertOrganization(db, { name: 'Quiet Ltd', members: member });
  lockedId = await insertOrganization(db, { name: 'Locked Ltd', members: member, activated: false });
  busyId = await insertOrganization(db, { name: 'Busy Ltd', members: member });
  const elsewhere = await insertOrganization(db, { name: 'Inviting Co', members: [{ userId: 'user_home_other' }] });

  // Busy Ltd: a subscription past due, an invoice awaiting its transfer, a callback that failed for good (and one
  // that failed long ago), an invitation not answered, and a live wallet below its threshold.
  await insertSubscription(db, busyId, {
    plan: 'core',
    seats: 3,
    cycle: 'monthly',
    anchor: '2026-10-01',
    status: 'past_due',
  });
  const token = await h.apiToken(WANGARI.sub);
  const paid = await h.t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: { authorization: `Bearer ${token}`, 'x-organization-id': busyId },
    payload: { method: 'bank_transfer', amount: LARGE_TOP_UP },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const failedNow = await insertPendingSession(db, { organizationId: busyId, externalEndUserId: 'failing-now' });
  const failedLongAgo = await insertPendingSession(db, { organizationId: busyId, externalEndUserId: 'failing-then' });
  await db.execute(
    sql`update ${webhookEvents} set status = 'failed', attempts = 8 where ${webhookEvents.payload}->'data'->>'sessionId' in (${failedNow}, ${failedLongAgo})`,
  );
  await db.execute(
    sql`update ${webhookEvents} set created_at = ${new Date(Date.now() - 30 * DAY_MS).toISOString()}::timestamptz where ${webhookEvents.payload}->'data'->>'sessionId' = ${failedLongAgo}`,
  );
  const invitation = {
    role: 'developer' as const,
    invitedBy: WANGARI.sub,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + 7 * DAY_MS),
  };
  await insertInvitation(db, { ...invitation, organizationId: busyId, email: 'new.hire@home.example' });
  await updateLowBalanceThreshold(db, {
    organizationId: busyId,
    environment: 'live',
    lowBalanceThreshold: 500,
    audit: { actorUserId: WANGARI.sub, requestId: null, ip: null },
  });

  // An invitation to Wangari herself, from another organization.
  const toYou = await insertInvitation(db, {
    ...invitation,
    invitedBy: 'user_home_other',
    organizationId: elsewhere,
    email: 'Wangari@Home.example',
  });
  if (toYou === 'pending-exists') throw new Error('the invitation was not inserted');
  invitationToYou = toYou.id;
});
afterAll(async () => {
  await h?.close();
});

/** The attention items: each link and its text, in the order shown. */
const linksOf = (html: string) =>
  [...(/<ul class="attention">(.*?)<\/ul>/s.exec(html)?.[1] ?? '').matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map(
    (match) => [match[1], match[2]],
  );

describe("Home's attention items", () => {
  it('links each thing that needs attention in the organization shown to the page that deals with it', async () => {
    const page = await h.get(`/dashboard?org=${busyId}`, cookie);
    expect(page.statusCode).toBe(200);
    expect(linksOf(page.body)).toEqual(
      expect.arrayContaining([
        ['/dashboard/billing', 'The subscription is past due: pay to keep it.'],
        ['/dashboard/billing', 'Invoices awaiting payment: 1'],
        ['/dashboard/developers/events', 'Callbacks that failed for good in the last 7 days: 1'],
        ['/dashboard/team', 'Invitations not answered yet: 1'],
        [`/dashboard/invitations/${invitationToYou}`, 'Inviting Co invites you to join as Developer'],
      ]),
    );
    expect(page.body).not.toContain('/dashboard/activation');
    // The balances, whole KES, and the live one below its threshold.
    expect(page.body).toContain('Overview of Busy Ltd');
    expect(page.body).toContain('KES 0 available');
    expect(page.body).toContain('Below its alert threshold of KES 500');
    expect(page.body).toContain('No low-balance alert set');
    expect(page.body).toContain('Past due');
    // Home still lists every organization.
    for (const name of ['Quiet Ltd', 'Locked Ltd', 'Busy Ltd']) expect(page.body).toContain(`<h3>${name}</h3>`);
  });

  it('says live is locked for an organization not activated, and shows only that organization’s facts', async () => {
    const page = await h.get(`/dashboard?org=${lockedId}`, cookie);
    expect(linksOf(page.body)).toEqual([
      ['/dashboard/activation', 'Live is locked until the organization is activated.'],
      [`/dashboard/invitations/${invitationToYou}`, 'Inviting Co invites you to join as Developer'],
    ]);
    expect(page.body).toContain('No subscription');
    expect(page.body).not.toContain('Below its alert threshold');
  });

  it('says when nothing needs attention', async () => {
    const calm = await h.organizationWith('Calm Ltd', {
      owner: { sub: 'user_home_other', email: 'other@home.example' },
    });
    const page = await h.get(`/dashboard?org=${calm.id}`, calm.cookies.owner);
    expect(page.body).toContain('Nothing needs your attention.');
    expect(page.body).toContain('Overview of Calm Ltd');
    expect(quietId).toBeTruthy();
  });

  it('lists the invitations to a user who belongs to no organization', async () => {
    await insertUser(h.t.db, {
      id: 'user_home_new',
      email: 'new.hire@home.example',
      firstName: 'New',
      lastName: 'Hire',
    });
    const newcomer = await h.signIn({ sub: 'user_home_new', email: 'new.hire@home.example' });
    const page = await h.get('/dashboard', newcomer);
    expect(linksOf(page.body)).toEqual([
      [expect.stringMatching(/^\/dashboard\/invitations\/[0-9a-f-]{36}$/), 'Busy Ltd invites you to join as Developer'],
    ]);
    expect(page.body).not.toContain('Overview of');
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await h.get(`/dashboard?org=${busyId}&lang=sw`, cookie);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Yanayohitaji umakini wako');
    expect(page.body).toContain('Ankara zinazosubiri malipo: 1');
    expect(page.body).toContain('Mkoba halisi');
  });
});
