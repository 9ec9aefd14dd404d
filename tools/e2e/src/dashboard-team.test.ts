import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@platform/db';
import { memberships, notifications, organizations, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import {
  type DashboardPlatform,
  freshPage,
  type JourneySize,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';

// An owner runs their team from the dashboard in a browser (docs/decisions.md#dashboard-pages): the Team page, an
// invitation sent (its email in the outbox), one sent again and one revoked, a colleague's role changed, the audit
// log saying so, and the notifications inbox read. At a phone's size and a desktop's, every page checked with
// axe-core and photographed (SCREENSHOT_DIR, /tmp/shots-team); the audit log in Kiswahili too.

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-team';

/**
 * The owner's organization with a colleague who has a profile (a developer), and two notifications for the owner as
 * the platform writes them; the organization's id.
 */
async function teamOf(db: Database, ownerEmail: string, size: JourneySize): Promise<string> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
  if (owner === undefined) throw new Error(`No profile for ${ownerEmail}`);
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({ name: `Duka Team ${size.name}`, activatedAt: new Date() })
      .returning();
    if (organization === undefined) throw new Error('Inserting the organization returned no row');
    const colleagueId = `user_e2e_colleague_${size.name}`;
    await tx
      .insert(users)
      .values({ id: colleagueId, email: `baraka-${size.name}@duka.example`, firstName: 'Baraka', lastName: 'Otieno' });
    await tx.insert(memberships).values([
      { organizationId: organization.id, userId: owner.id, role: 'owner' },
      { organizationId: organization.id, userId: colleagueId, role: 'developer' },
    ]);
    await tx.insert(notifications).values([
      {
        userId: owner.id,
        organizationId: organization.id,
        type: 'info',
        title: 'Verify your business to go live',
        message: 'Complete the business verification to unlock live API keys and live top-ups.',
        actionUrl: '/dashboard/activation',
      },
      {
        userId: owner.id,
        organizationId: organization.id,
        type: 'warning',
        title: 'Wallet balance low',
        message: 'The live wallet has KES 150 available, below the alert threshold of KES 500.',
        actionUrl: '/dashboard/billing',
      },
    ]);
    return organization.id;
  });
}

/** How many emails of the outbox went to `to`. */
async function mailCount(outbox: string, to: string): Promise<number> {
  const files = await readdir(outbox);
  const messages = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
  return messages.filter((message) => message.includes(`To: ${to}`)).length;
}

/** The card of the Team page that holds this text (a member or an invitation). */
const cardOf = (page: Page, text: string) => page.locator('li.card', { hasText: text });

describe.skipIf(missing(chromiumBrowser))('running a team from the dashboard in a browser', () => {
  let platform: DashboardPlatform;

  beforeAll(async () => {
    platform = await startDashboardPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)('invites, resends, revokes, changes a role, reads the log and the inbox ($name)', async (size) => {
    const { outbox, database } = platform;
    const page = await freshPage(platform, size);
    const violations = policyViolationsOf(page);
    const check = pageChecker(platform, page, size, SHOTS);
    const email = `amina-${size.name}@duka.example`;
    const invitee = `neema-${size.name}@duka.example`;
    const passing = `temp-${size.name}@duka.example`;

    await signUp(platform, page, { email, givenName: 'Amina', familyName: 'Wafula' });
    const organizationId = await teamOf(database.db, email, size);
    await page.goto(`${platform.mainUrl}/dashboard?org=${organizationId}`);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
    await page.getByText(`You are the only owner of Duka Team ${size.name}`).waitFor();
    await check('1-team');

    await page.getByLabel('Email address').fill(invitee);
    await page.getByLabel('Role', { exact: true }).selectOption('billing');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText('The invitation is sent.').waitFor();
    expect(await mailCount(outbox, invitee)).toBe(1);
    await check('2-invited');

    await page.getByLabel('Email address').fill(passing);
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText('The invitation is sent.').waitFor();
    await cardOf(page, invitee).getByRole('button', { name: 'Send again' }).click();
    await page.getByText('The invitation is sent again').waitFor();
    expect(await mailCount(outbox, invitee)).toBe(2);
    await cardOf(page, passing).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The invitation is revoked').waitFor();
    expect(await cardOf(page, passing).count()).toBe(0);
    await cardOf(page, invitee).waitFor();
    await check('3-resent-and-revoked');

    const colleague = cardOf(page, 'Baraka Otieno');
    await colleague.getByLabel('Role of Baraka Otieno').selectOption('admin');
    await colleague.getByRole('button', { name: 'Change the role' }).click();
    await page.getByText('The role is changed.').waitFor();
    await cardOf(page, 'Baraka Otieno')
      .getByRole('definition')
      .filter({ hasText: /^Admin$/ })
      .waitFor();
    await check('4-role-changed');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    for (const what of ['Changed the role of a member', 'Revoked an invitation', 'Sent an invitation again']) {
      await page.getByText(what).first().waitFor();
    }
    expect(await page.getByText('Invited someone').count()).toBe(2);
    await check('5-audit');

    await page.getByRole('link', { name: 'Kiswahili' }).click();
    await page.getByRole('heading', { name: 'Kumbukumbu za ukaguzi' }).waitFor();
    await page.getByText('Alibadilisha jukumu la mwanachama').waitFor();
    await check('6-audit-sw');
    await page.getByRole('link', { name: 'English' }).click();

    await page.getByRole('link', { name: /^Notifications/ }).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.getByText(`About Duka Team ${size.name}`).first().waitFor();
    await page.getByText('Unread: 2').waitFor();
    const opens = await page
      .getByRole('link', { name: /^Open/ })
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(opens.sort()).toEqual([
      `/dashboard/activation?org=${organizationId}`,
      `/dashboard/billing?org=${organizationId}`,
    ]);
    await check('7-notifications');

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByText('Every notification is marked as read.').waitFor();
    await page.getByText('Unread: 0').waitFor();
    await check('8-notifications-read');
    expect(violations).toEqual([]);
    await page.close();
  });
});
