import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { VERIFY_URL } from './backend-api.js';
import {
  type DashboardBackend,
  type DashboardPlatform,
  freshPage,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';
import { sessionRow } from './database.js';
import { eventually, signInToConsole, submitKybPapers } from './journey.js';

// Going live from the dashboard in a browser (docs/decisions.md#going-live): a new business finds live keys locked
// on the Developers page, starts its business verification from Going live, is sent to the hosted page that
// backend-api serves, uploads its papers there, is verified by the platform's reviewer in the review console, comes
// back to the dashboard from the hosted page's last page, and creates a live key that backend-api takes. At a
// phone's size and a desktop's, every dashboard page checked with axe-core and photographed (SCREENSHOT_DIR,
// /tmp/shots-going-live).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-going-live';

describe.skipIf(missing(chromiumBrowser))('going live from the dashboard, in a browser', () => {
  let platform: DashboardPlatform;
  let backend: DashboardBackend;

  beforeAll(async () => {
    platform = await startDashboardPlatform({ backend: {} });
    if (platform.backend === undefined) throw new Error('backend-api did not start');
    backend = platform.backend;
  });
  afterAll(async () => {
    await platform?.close();
  });

  it.each(SIZES)(
    'verifies the business on the hosted page, is verified by a reviewer, and creates a live key ($name)',
    async (size) => {
      const { mainUrl } = platform;
      const owner = { email: `owner-${size.name}@soko.example`, givenName: 'Wanjiru', familyName: 'Kamau' };
      const organizationName = `Soko Payments ${size.name}`;
      const page = await freshPage(platform, size);
      const violations = policyViolationsOf(page);
      const check = pageChecker(platform, page, size, SHOTS);
      await signUp(platform, page, owner, '/dashboard?lang=en');
      await page.getByRole('link', { name: 'Create an organization' }).click();
      await page.getByLabel('Name of the organization').fill(organizationName);
      await page.getByLabel('KRA PIN (optional)').fill('P051234567X');
      await page.getByRole('button', { name: 'Create the organization' }).click();
      await page.getByText(`The organization ${organizationName} is created.`).waitFor();
      const organizationId = new URL(page.url()).searchParams.get('org') ?? '';

      // Live keys are locked, and the page says where to unlock them.
      await page.goto(`${mainUrl}/dashboard/developers?env=live`);
      await page.getByText('Live keys are locked until your organization is activated').waitFor();
      expect(await page.getByRole('button', { name: 'Create the key' }).count()).toBe(0);
      await check('1-live-keys-locked');
      await page.getByRole('link', { name: 'Activate the organization' }).click();
      await page.getByRole('heading', { name: 'Going live' }).waitFor();
      await check('2-activation');

      // The hosted page, served by backend-api: the consent, the business's details and its papers.
      await page.getByRole('button', { name: 'Start the business verification' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${VERIFY_URL}/session/`));
      const verificationUrl = `${VERIFY_URL}${new URL(page.url()).pathname}`;
      const sessionId = verificationUrl.split('/').at(-1) ?? '';
      await submitKybPapers(page, verificationUrl, {
        registrationNumber: 'PVT-SK12PQ9',
        companyName: `${organizationName} Limited`,
        cr12: 'CR12',
        directors: ['DIRECTOR'],
      });
      expect(await page.locator('#session-status').textContent()).toBe('Processing');

      // Going live says it is being reviewed meanwhile.
      const dashboard = await platform.browser.context.newPage();
      await dashboard.setViewportSize({ width: size.width, height: size.height });
      const dashboardViolations = policyViolationsOf(dashboard);
      await dashboard.goto(`${mainUrl}/dashboard/activation?org=${organizationId}&lang=en`);
      await dashboard.getByText('the documents are being reviewed').waitFor();
      const checkDashboard = pageChecker(platform, dashboard, size, SHOTS);
      await checkDashboard('3-activation-processing');
      await dashboard.getByRole('link', { name: 'Kiswahili' }).click();
      await dashboard.getByRole('heading', { name: 'Kuanza huduma halisi' }).waitFor();
      await checkDashboard('3b-activation-processing-sw');
      // The language is the browser's: back to English for the rest of the journey.
      await dashboard.getByRole('link', { name: 'English' }).click();
      await dashboard.getByRole('heading', { name: 'Going live' }).waitFor();

      // The platform's reviewer verifies it in the review console.
      const desk = await platform.browser.context.newPage();
      const deskViolations = policyViolationsOf(desk);
      await signInToConsole(platform, desk, backend.reviewerToken);
      await desk.goto(`${mainUrl}/review/sessions/${sessionId}`);
      await desk.getByText('PVT-SK12PQ9').waitFor();
      await desk.getByRole('radio', { name: 'Verified' }).check();
      await Promise.all([
        desk.waitForURL(`${mainUrl}/review?notice=decided`),
        desk.getByRole('button', { name: 'Record the decision' }).click(),
      ]);
      await desk.close();

      // The hosted page shows the result and leads back to the dashboard, where live is unlocked.
      await eventually(
        () => page.locator('#session-status').textContent(),
        (status) => status === 'Verified',
        'the hosted page to show the result',
      );
      await Promise.all([
        page.waitForURL(`${mainUrl}/dashboard/activation?org=${organizationId}`),
        page.getByRole('link', { name: /^Continue to / }).click(),
      ]);
      await page.getByText('live API keys and live top-ups are unlocked').waitFor();
      await check('4-activation-activated');

      // A live key, its secret shown once, taken by backend-api.
      await page.getByRole('link', { name: 'Create live API keys on the Developers page' }).click();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      expect(new URL(page.url()).searchParams.get('env')).toBe('live');
      await page.getByLabel('Name').fill('Production server');
      await page.getByRole('button', { name: 'Create the key' }).click();
      await page.getByRole('heading', { name: 'Your new key "Production server"' }).waitFor();
      const secret = await page.getByRole('textbox', { name: 'Secret key' }).inputValue();
      expect(secret).toMatch(/^sk_live_[\w-]{43}$/);
      await check('5-live-key-created');
      const wallet = await fetch(`${backend.url}/v1/wallet`, { headers: { 'x-service-api-key': secret } });
      expect(wallet.status).toBe(200);
      expect((await wallet.json()).data).toMatchObject({ environment: 'live' });

      expect((await sessionRow(platform.database.db, sessionId)).status).toBe('verified');
      expect([...violations, ...dashboardViolations, ...deskViolations]).toEqual([]);
      await dashboard.close();
      await page.close();
    },
  );
});
