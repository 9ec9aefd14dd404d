import { users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import {
  type DashboardPlatform,
  freshPage,
  mailTo,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';

// Onboarding in a browser (docs/decisions.md#dashboard-pages): a business signs up and creates its organization with
// the form, invites a colleague (through the API: the Team page is another journey's), who signs up from the link in
// the email in the outbox and accepts (going live is dashboard-going-live.test.ts's). At a phone's size and a
// desktop's, every page checked with axe-core and photographed (SCREENSHOT_DIR, /tmp/shots-onboarding), in English
// and in Kiswahili.

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-onboarding';

/** The link of the newest invitation email to `to`, as the invitee reads it. */
async function invitationLinkFor(outbox: string, to: string): Promise<string> {
  for (const message of await mailTo(outbox, to)) {
    // Quoted-printable may wrap a long line: read it without its soft line breaks.
    const link = /https?:\/\/\S+\/dashboard\/invitations\/[0-9a-f-]{36}/.exec(message.replace(/=\r?\n/g, ''))?.[0];
    if (link !== undefined) return link;
  }
  throw new Error(`no invitation for ${to} in the outbox`);
}

describe.skipIf(missing(chromiumBrowser))('onboarding in the dashboard, in a browser', () => {
  let platform: DashboardPlatform;

  beforeAll(async () => {
    platform = await startDashboardPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)('creates an organization, invites, and accepts from the email ($name)', async (size) => {
    const { mainUrl, outbox } = platform;
    const owner = { email: `founder-${size.name}@duka.example`, givenName: 'Achieng', familyName: 'Otieno' };
    const invitee = { email: `dev-${size.name}@duka.example`, givenName: 'Baraka', familyName: 'Mwangi' };
    const organizationName = `Duka Lending ${size.name}`;

    const page = await freshPage(platform, size);
    const violations = policyViolationsOf(page);
    const check = pageChecker(platform, page, size, SHOTS);
    await signUp(platform, page, owner, '/dashboard?lang=en');
    await page.getByRole('link', { name: 'Create an organization' }).click();
    await page.getByRole('heading', { name: 'Create an organization' }).waitFor();
    await check('1-organization-new');

    await page.getByLabel('Name of the organization').fill(organizationName);
    await page.getByLabel('KRA PIN (optional)').fill('P0512');
    await page.getByLabel('Postal address (optional)').fill('Moi Avenue 12\nNairobi');
    await page.getByRole('button', { name: 'Create the organization' }).click();
    await page.getByText('The organization was not created').waitFor();
    await check('2-organization-new-refused');

    await page.getByLabel('KRA PIN (optional)').fill('P051234567X');
    await page.getByRole('button', { name: 'Create the organization' }).click();
    await page.getByText(`The organization ${organizationName} is created.`).waitFor();
    const organizationId = new URL(page.url()).searchParams.get('org');
    expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);
    await check('3-home-created');

    // The invitation, through the API as the owner.
    const [ownerRow] = await platform.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, owner.email));
    const invited = await fetch(`${mainUrl}/v1/organizations/${organizationId}/invitations`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await platform.apiToken(ownerRow?.id ?? '')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: invitee.email, role: 'developer' }),
    });
    expect(invited.status).toBe(201);

    await page.close();

    // The invitee opens the email's link, signs up from it and comes back to the invitation.
    const link = await invitationLinkFor(outbox, invitee.email);
    expect(link.startsWith(`${mainUrl}/dashboard/invitations/`)).toBe(true);
    const second = await freshPage(platform, size);
    const secondViolations = policyViolationsOf(second);
    const checkSecond = pageChecker(platform, second, size, SHOTS);
    await signUp(platform, second, invitee, `${new URL(link).pathname}?lang=en`);
    await second.getByRole('heading', { name: `Invitation to ${organizationName}` }).waitFor();
    await second.getByText('Achieng Otieno').first().waitFor();
    await checkSecond('4-invitation');

    await second.getByRole('link', { name: 'Kiswahili' }).click();
    await second.getByRole('heading', { name: `Mwaliko wa kujiunga na ${organizationName}` }).waitFor();
    await checkSecond('5-invitation-sw');
    await second.getByRole('button', { name: 'Kubali na ujiunge' }).click();
    await second.getByText(`Umejiunga na ${organizationName}.`).waitFor();
    expect(new URL(second.url()).searchParams.get('notice')).toBe('joined');
    await checkSecond('6-home-joined-sw');

    await second.getByRole('link', { name: 'English' }).click();
    await second.getByRole('heading', { name: 'Welcome, Baraka Mwangi' }).waitFor();
    await second.getByText('Your role: Developer').waitFor();
    expect([...violations, ...secondViolations]).toEqual([]);
    await second.close();
  });
});
