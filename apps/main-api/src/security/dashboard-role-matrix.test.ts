import { randomUUID } from 'node:crypto';
import { membershipRoles } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../test/dashboard-harness.js';
import { insertOrganization } from '../../test/helpers.js';
import { insertPendingSession } from '../../test/verification-session-fixtures.js';
import type { DashboardPageRule } from '../modules/dashboard/page-access.js';
import { allows } from '../modules/organizations/index.js';

// The role policy walked over every dashboard page and form (docs/decisions.md#dashboard-pages), from the routes the
// app registers: a member of each role opens each, and is refused with the 403 page exactly when the role lacks the
// page's permission; a user who is not a member of the organization asked for gets the 404 page.

const userOf = (role: string) => ({
  sub: `user_dash_${role}`,
  email: `${role}@dash.example.com`,
  givenName: 'Role',
  familyName: role,
});
const OUTSIDER = {
  sub: 'user_dash_outsider',
  email: 'outsider@dash.example.com',
  givenName: 'Out',
  familyName: 'Sider',
};

let h: DashboardHarness;
let organizationId: string;
const cookies = new Map<string, string>();
let pages: Array<{ method: string; url: string; rule: DashboardPageRule }>;

beforeAll(async () => {
  // Every route for every role from one address: well over a minute's requests at the production limit.
  h = await startDashboardHarness({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  for (const role of membershipRoles) cookies.set(role, await h.signIn(userOf(role)));
  cookies.set('outsider', await h.signIn(OUTSIDER));
  organizationId = await insertOrganization(h.t.db, {
    members: membershipRoles.map((role) => ({ userId: userOf(role).sub, role })),
  });
  await insertOrganization(h.t.db, { members: [{ userId: OUTSIDER.sub, role: 'owner' }] });
  pages = h.t.app.registeredRoutes
    .filter((route) => route.method !== 'HEAD' && route.config['dashboardPage'] !== undefined)
    .map(({ method, url, config }) => ({ method, url, rule: config['dashboardPage'] as DashboardPageRule }));
});
afterAll(async () => {
  await h?.close();
});

/**
 * The route's URL for the organization, a pending session of it standing for `:id`; a user and an invitation that
 * are none of its own for `:userId` and `:invitationId`, an unknown payment for `:reference` (their 404 page: the
 * refusal tested is the guard's).
 */
async function urlOf(url: string): Promise<string> {
  const sessionId = await insertPendingSession(h.t.db, { organizationId });
  const path = url
    .replace(':id', sessionId)
    .replace(':userId', 'user_dash_nobody')
    .replace(':invitationId', randomUUID())
    .replace(':reference', 'PAY-00000000-0000-4000-8000-000000000000');
  return `${path}?org=${organizationId}`;
}

async function open(method: string, url: string, cookie: string) {
  if (method === 'GET') return h.get(url, cookie);
  // A form token of the user's own, so the refusal is the policy's and not CSRF's; the organization is in the URL.
  return h.post(url, cookie, {}, '/dashboard');
}

describe('the dashboard role matrix', () => {
  it('finds the dashboard pages and forms', () => {
    expect(pages.map(({ method, url }) => `${method} ${url}`)).toEqual(
      expect.arrayContaining([
        'GET /dashboard',
        'GET /dashboard/verifications',
        'POST /dashboard/verifications/:id/cancel',
        'GET /dashboard/developers',
        'POST /dashboard/developers/keys',
        'POST /dashboard/developers/keys/:id/revoke',
        'GET /dashboard/developers/webhooks',
        'POST /dashboard/developers/webhooks',
        'POST /dashboard/developers/webhooks/clear',
        'POST /dashboard/developers/webhooks/secret/reveal',
        'POST /dashboard/developers/webhooks/secret/rotate',
        'POST /dashboard/developers/webhooks/test',
        'GET /dashboard/developers/events',
        'GET /dashboard/developers/events/:id',
        'POST /dashboard/developers/events/:id/redeliver',
        'GET /dashboard/developers/origins',
        'POST /dashboard/developers/origins',
        'POST /dashboard/developers/origins/remove',
        'GET /dashboard/profile',
        'POST /dashboard/profile',
        'GET /dashboard/profile/new',
        'POST /dashboard/profile/new',
        'GET /dashboard/settings',
        'POST /dashboard/settings',
        'POST /dashboard/settings/low-balance',
        'GET /dashboard/team',
        'POST /dashboard/team/invitations',
        'POST /dashboard/team/invitations/:invitationId/resend',
        'POST /dashboard/team/invitations/:invitationId/revoke',
        'POST /dashboard/team/members/:userId/role',
        'POST /dashboard/team/members/:userId/remove',
        'GET /dashboard/audit',
        'GET /dashboard/notifications',
        'POST /dashboard/notifications/read-all',
        'POST /dashboard/notifications/:id/read',
        'GET /dashboard/organizations/new',
        'POST /dashboard/organizations/new',
        'GET /dashboard/invitations/:id',
        'POST /dashboard/invitations/:id/accept',
        'GET /dashboard/activation',
        'POST /dashboard/activation',
        'GET /dashboard/billing',
        'GET /dashboard/billing/plan',
        'POST /dashboard/billing/plan',
        'POST /dashboard/billing/subscription/cancel',
        'POST /dashboard/billing/subscription/resume',
        'GET /dashboard/billing/payment-methods',
        'POST /dashboard/billing/payment-methods/:id/remove',
        'GET /dashboard/billing/payments',
        'GET /dashboard/billing/payments.csv',
        'GET /dashboard/billing/wallet',
        'POST /dashboard/billing/wallet/test-top-up',
        'POST /dashboard/billing/wallet/top-up',
        'GET /dashboard/billing/payments/:reference/receipt',
        'GET /dashboard/billing/payments/:reference/invoice',
      ]),
    );
  });

  it('refuses a role with the 403 page exactly when it lacks the page permission', async () => {
    const wrong: string[] = [];
    for (const { method, url, rule } of pages) {
      for (const role of membershipRoles) {
        const answer = await open(method, await urlOf(url), cookies.get(role) ?? '');
        const refused = answer.statusCode === 403;
        const shouldRefuse = rule.requires !== undefined && !allows(role, rule.requires);
        if (refused !== shouldRefuse || answer.statusCode >= 500) {
          wrong.push(`${method} ${url} as ${role}: ${answer.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers the 404 page to a user who is not a member of the organization, on every page of one', async () => {
    const wrong: string[] = [];
    for (const { method, url, rule } of pages) {
      if (rule.requires === undefined) continue;
      const answer = await open(method, await urlOf(url), cookies.get('outsider') ?? '');
      if (answer.statusCode !== 404) wrong.push(`${method} ${url}: ${answer.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});
