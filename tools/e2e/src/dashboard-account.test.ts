import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import {
  type DashboardPlatform,
  freshPage,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';
import { organizationOwnedBy } from './database.js';

// A business owner's own pages of the dashboard in a browser (docs/decisions.md#dashboard-pages): Home with what
// needs attention, the Profile form saved and refused, the Settings forms saved, Home again with the low balance, and
// Kiswahili. At a phone's size and a desktop's, every page checked with axe-core and photographed (SCREENSHOT_DIR,
// /tmp/shots-account).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-account';

describe.skipIf(missing(chromiumBrowser))("an owner's Home, Profile and Settings in a browser", () => {
  let platform: DashboardPlatform;

  beforeAll(async () => {
    platform = await startDashboardPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)(
    'sees what needs attention, saves the profile and the settings ($name, $width x $height)',
    async (size) => {
      const page = await freshPage(platform, size);
      const violations = policyViolationsOf(page);
      const check = pageChecker(platform, page, size, SHOTS);
      const email = `achieng-${size.name}@mazao.example`;
      await signUp(platform, page, { email, givenName: 'Achieng', familyName: 'Otieno' });
      await organizationOwnedBy(platform.database.db, email, `Mazao Traders ${size.name}`);

      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByRole('heading', { name: 'Needs your attention' }).waitFor();
      await page.getByRole('link', { name: 'Live is locked until the organization is activated.' }).waitFor();
      await page.getByText('KES 10,000 available').waitFor();
      await check('1-home');

      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'Your profile' }).waitFor();
      await page.getByText('Not verified yet').waitFor();
      await check('2-profile');

      await page.getByLabel('Phone number').fill('call me');
      await page.getByRole('button', { name: 'Save your details' }).click();
      await page.getByText('Nothing was saved').waitFor();
      await check('3-profile-refused');

      await page.getByLabel('Phone number').fill('0712 345 678');
      await page.getByLabel('Date of birth').fill('1990-05-15');
      await page.getByRole('button', { name: 'Save your details' }).click();
      await page.getByText('Your details are saved.').waitFor();
      expect(await page.getByLabel('Phone number').inputValue()).toBe('+254712345678');
      await check('4-profile-saved');

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      await page.getByLabel('KRA PIN').fill('p051234567q');
      await page.getByLabel('Address').fill('Kilimani Business Centre, 3rd floor\nArgwings Kodhek Road\nNairobi');
      await page.getByLabel('Billing email').fill('accounts@mazao.example');
      await page.getByRole('button', { name: 'Save the details' }).click();
      await page.getByText('The details are saved.').waitFor();
      expect(await page.getByLabel('KRA PIN').inputValue()).toBe('P051234567Q');
      await page.getByLabel('Threshold of the live wallet (KES)').fill('500');
      await page.getByRole('button', { name: 'Save the alerts' }).click();
      await page.getByText('The low-balance alerts are saved.').waitFor();
      await check('5-settings-saved');

      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByText('Below its alert threshold of KES 500').waitFor();
      await check('6-home-low-balance');

      await page.getByRole('link', { name: 'Kiswahili' }).click();
      await page.getByRole('heading', { name: 'Yanayohitaji umakini wako' }).waitFor();
      await check('7-home-sw');

      await page.getByRole('link', { name: 'Mipangilio' }).click();
      await page.getByRole('heading', { name: 'Mipangilio', exact: true }).waitFor();
      await check('8-settings-sw');

      await page.getByRole('link', { name: 'Wasifu' }).click();
      await page.getByRole('heading', { name: 'Wasifu wako' }).waitFor();
      await check('9-profile-sw');
      expect(violations).toEqual([]);
      await page.close();
    },
  );
});
