import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { organizations, users } from '@platform/db/schema';
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
// the email in the outbox and accepts; the owner starts going live and is sent to the hosted verification page (a
// stand-in server here: the redirect after the form must pass the page's CSP form-action in a real browser), then
// sees live unlocked once the organization is activated (the KYB decision itself is live-kyb.test.ts's). At a
// phone's size and a desktop's, every page checked with axe-core and photographed (SCREENSHOT_DIR,
// /tmp/shots-onboarding), in English and in Kiswahili.

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-onboarding';
const PLATFORM_ORGANIZATION_ID = randomUUID();

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
  /** Stands in for the hosted verification page: answers any path with a page naming it. */
  let hostedPage: Server;
  let verifyUrl: string;

  beforeAll(async () => {
    hostedPage = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><title>Verify your business</title><h1>${request.url}</h1></html>`);
    });
    await new Promise<void>((resolve) => hostedPage.listen(0, '127.0.0.1', resolve));
    verifyUrl = `http://127.0.0.1:${(hostedPage.address() as AddressInfo).port}`;
    platform = await startDashboardPlatform({
      env: { PLATFORM_ORGANIZATION_ID, VERIFY_URL: verifyUrl },
    });
    await platform.database.db.insert(organizations).values({ id: PLATFORM_ORGANIZATION_ID, name: 'Platform' });
  });
  afterAll(async () => {
    await platform?.close();
    await new Promise((resolve) => hostedPage?.close(resolve));
  });

  it.each(SIZES)(
    'creates an organization, invites, accepts from the email, and starts going live ($name)',
    async (size) => {
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

      // Going live: the start form sends the browser on to the hosted page.
      await page.goto(`${mainUrl}/dashboard/activation`);
      await page.getByRole('heading', { name: 'Going live' }).waitFor();
      await page.getByText('the business verification has not been started').waitFor();
      await check('4-activation');
      await page.getByRole('button', { name: 'Start the business verification' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${verifyUrl}/session/`));
      await page.goto(`${mainUrl}/dashboard/activation?lang=sw`);
      await page.getByRole('button', { name: 'Endelea na uthibitishaji wa biashara' }).waitFor();
      await check('5-activation-open-sw');
      // The decision on the hosted page is the KYB journey's (live-kyb.test.ts); here the organization is marked
      // activated as a verified session marks it, to see the page say live is unlocked.
      await platform.database.db
        .update(organizations)
        .set({ activatedAt: new Date() })
        .where(eq(organizations.id, organizationId ?? ''));
      await page.goto(`${mainUrl}/dashboard/activation?lang=en`);
      await page.getByText('live API keys and live top-ups are unlocked').waitFor();
      expect(await page.getByRole('link', { name: 'Create live API keys on the Developers page' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Start the business verification' }).count()).toBe(0);
      await check('6-activation-activated');
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
      await checkSecond('7-invitation');

      await second.getByRole('link', { name: 'Kiswahili' }).click();
      await second.getByRole('heading', { name: `Mwaliko wa kujiunga na ${organizationName}` }).waitFor();
      await checkSecond('8-invitation-sw');
      await second.getByRole('button', { name: 'Kubali na ujiunge' }).click();
      await second.getByText(`Umejiunga na ${organizationName}.`).waitFor();
      expect(new URL(second.url()).searchParams.get('notice')).toBe('joined');
      await checkSecond('9-home-joined-sw');

      await second.getByRole('link', { name: 'English' }).click();
      await second.getByRole('heading', { name: 'Welcome, Baraka Mwangi' }).waitFor();
      await second.getByText('Your role: Developer').waitFor();
      expect([...violations, ...secondViolations]).toEqual([]);
      await second.close();
    },
  );
});
