import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import {
  codeFor,
  type DashboardPlatform,
  freshPage,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';
import { organizationWithTestSession } from './database.js';

// A business signs up for the dashboard in a browser (docs/decisions.md#dashboard-sign-in): main-api on a test
// database, the local start's identity provider beside it, the one-time code read from the mail outbox. At a phone's
// size and a desktop's, every page checked with axe-core and photographed (SCREENSHOT_DIR, /tmp/shots-signin).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-signin';

describe.skipIf(missing(chromiumBrowser))('signing up for the dashboard in a browser', () => {
  let platform: DashboardPlatform;

  beforeAll(async () => {
    platform = await startDashboardPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)('signs up with a code from the outbox and lands on Home ($name, $width x $height)', async (size) => {
    const { mainUrl, outbox } = platform;
    const page = await freshPage(platform, size);
    const violations = policyViolationsOf(page);
    const email = `owner-${size.name}@duka.example`;
    const check = pageChecker(platform, page, size, SHOTS);

    await page.goto(`${mainUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await check('1-sign-in');

    await page.getByRole('button', { name: 'Sign in or create an account' }).click();
    await page.getByLabel('Email address').waitFor();
    await check('2-idp-email');

    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('One-time code').waitFor();
    await check('3-idp-code');

    await page.getByLabel('One-time code').fill(await codeFor(outbox, email));
    await page.getByLabel('First name').fill('Wanjiku');
    await page.getByLabel('Last name').fill('Kamau');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Welcome, Wanjiku Kamau' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByText('You do not belong to any organization yet').waitFor();
    await check('4-home');

    // An organization with a test session (the create form and the API's session are other journeys' part).
    await organizationWithTestSession(platform.database.db, email, `Duka Lending ${size.name}`);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Verifications' }).click();
    await page.getByRole('heading', { name: 'Verifications' }).waitFor();
    await page.getByText('You are looking at test data').waitFor();
    await check('5-verifications');

    await page.getByRole('link', { name: /EAT$/ }).first().click();
    await page.getByRole('heading', { name: 'Verification session' }).waitFor();
    await check('6-session');

    await page.getByRole('link', { name: 'Kiswahili' }).click();
    await page.getByRole('heading', { name: 'Kipindi cha uthibitishaji' }).waitFor();
    await check('7-session-sw');

    await page.getByRole('button', { name: 'Ghairi kipindi hiki' }).click();
    await page.getByText('Kipindi kimeghairiwa').waitFor();

    await page.getByRole('link', { name: 'Uthibitishaji', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Uthibitishaji' }).waitFor();
    await check('8-verifications-sw');

    await page.getByRole('link', { name: 'Mwanzo' }).click();
    await page.getByRole('heading', { name: 'Karibu, Wanjiku Kamau' }).waitFor();
    await check('9-home-sw');

    // Signing out ends the identity provider's session too: its confirmation, in the dashboard's language, then back.
    await page.getByRole('button', { name: 'Toka' }).click();
    await page.getByRole('heading', { name: 'Utoke kwa mtoa utambulisho wa ndani?' }).waitFor();
    await check('10-idp-sign-out-sw');
    await page.getByRole('button', { name: 'Toka', exact: true }).click();
    await page.getByText('Umetoka.', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await check('11-signed-out-sw');
    // The provider asks who it is again: its session ended with ours.
    await page.getByRole('button', { name: 'Ingia au fungua akaunti' }).click();
    await page.getByLabel('Email address').waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });

  it('brings a returning user back to the page they asked for', async () => {
    const page = await freshPage(platform, SIZES[0]);
    const account = { email: 'owner-phone@duka.example', givenName: 'Wanjiku', familyName: 'Kamau' };
    await signUp(platform, page, account, '/dashboard/verifications?lang=en');
    expect(new URL(page.url()).pathname).toBe('/dashboard/verifications');
    await page.getByRole('heading', { name: 'Verifications' }).waitFor();
    await page.close();
  });
});
