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

// The Billing pages in a browser (docs/decisions.md#dashboard-pages): a new owner of an organization on test data tops
// up the test wallet, buys a plan through the sandbox's card checkout to its end, finds the payment in the history and
// opens its receipt; then reads the subscription in Kiswahili. At a phone's size and a desktop's, every page checked
// with axe-core and photographed (SCREENSHOT_DIR, /tmp/shots-billing).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-billing';

describe.skipIf(missing(chromiumBrowser))('the Billing pages in a browser', () => {
  let platform: DashboardPlatform;

  beforeAll(async () => {
    platform = await startDashboardPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)('tops up the test wallet, buys a plan at the checkout and opens its receipt ($name)', async (size) => {
    const page = await freshPage(platform, size);
    const violations = policyViolationsOf(page);
    const check = pageChecker(platform, page, size, SHOTS);
    const email = `billing-${size.name}@pochi.example`;
    await signUp(platform, page, { email, givenName: 'Amani', familyName: 'Mwangi' });
    await organizationOwnedBy(platform.database.db, email, `Pochi Traders ${size.name}`);
    await page.getByRole('link', { name: 'Home' }).click();

    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Subscription' }).waitFor();
    await page.getByText('The organization has no mail subscription yet.').waitFor();
    await check('1-subscription');

    await page.getByRole('link', { name: 'Wallet' }).click();
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    await page.getByText('You are looking at test data').waitFor();
    await check('2-wallet');
    await page.getByLabel('Amount in KES (whole shillings)').fill('25,000');
    await page.getByRole('button', { name: 'Add test credit' }).click();
    await page.getByText('The test wallet is topped up.').waitFor();
    await page.getByRole('cell', { name: 'KES 25,000' }).first().waitFor();
    await check('3-wallet-topped-up');

    // Live top-ups wait for the activation, and the page says where to go.
    await page.getByRole('link', { name: 'Live data' }).click();
    await page.getByText('Live top-ups are locked until the organization is activated').waitFor();
    expect(await page.getByRole('link', { name: 'Go to activation' }).getAttribute('href')).toBe(
      '/dashboard/activation',
    );
    await check('4-wallet-live-locked');
    await page.getByRole('link', { name: 'Test data' }).click();

    await page.getByRole('link', { name: 'Subscription' }).click();
    await page.getByRole('link', { name: 'Buy a plan' }).click();
    await page.getByRole('heading', { name: 'Choose a plan' }).waitFor();
    await page.getByLabel('Plan', { exact: true }).selectOption('growth');
    await page.getByLabel('Seats (mailboxes)').fill('12');
    await page.getByLabel('Billing cycle').selectOption('monthly');
    await page.getByRole('button', { name: 'Show the price' }).click();
    await page.getByText(/Price list: KES [\d,]+ a period/).waitFor();
    await check('5-plan');

    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.waitForURL((url) => url.pathname.includes('/checkout'));
    await page.getByRole('button', { name: /Pay/ }).first().waitFor();
    await check('6-sandbox-checkout');
    await page.getByRole('button', { name: /^Pay/ }).first().click();
    await page.waitForURL((url) => url.pathname === '/v1/billing/checkout/complete');
    await check('7-checkout-complete');

    await page.goto(`${platform.mainUrl}/dashboard/billing/payments`);
    await page.getByRole('heading', { name: 'Payment history' }).waitFor();
    await page.getByRole('cell', { name: 'Mail subscription' }).waitFor();
    await page.getByRole('cell', { name: 'Paid' }).waitFor();
    await check('8-payments');

    await page.getByRole('link', { name: /^Receipt RCT-/ }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/receipt'));
    await page
      .getByText(/RCT-\d{6}/)
      .first()
      .waitFor();
    await check('9-receipt');

    await page.goto(`${platform.mainUrl}/dashboard/billing?lang=sw`);
    await page.getByRole('heading', { name: 'Usajili' }).waitFor();
    await page.getByText('Unatumika').waitFor();
    await check('10-subscription-sw');
    expect(violations).toEqual([]);
    await page.close();
  });
});
