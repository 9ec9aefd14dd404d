import { unitOfWork } from '@platform/db';
import { verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectPhoneFriendly, PHONE } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { hostedPageBrowserSuite, VERIFY_HOST } from '../../../../test/hosted-page-browser-suite.js';
import { createSessionRequest } from '../../../../test/verification-fixtures.js';
import { recordChecks } from '../checks/index.js';
import { addDirectorSessions } from '../directors/director-sessions.js';
import { readAnySession } from '../service.js';

describe.skipIf(missing(chromiumBrowser))("a business's page gives each director their own link", () => {
  const suite = hostedPageBrowserSuite();

  /** A submitted business whose registry record names two directors, one of whom already verified. */
  async function businessWithDirectors(locale: 'en' | 'sw') {
    const created = await createSessionRequest(suite.app, suite.acme.liveKey, {
      type: 'kyb',
      externalEndUserId: `business-${locale}`,
      appName: 'Acme Payroll',
      locale,
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const now = suite.now();
    await suite.database.db
      .update(verificationSessions)
      .set({ status: 'processing', submittedAt: now })
      .where(eq(verificationSessions.id, sessionId));
    const parent = await readAnySession(suite.database.db, sessionId);
    if (parent === undefined) throw new Error('no session');
    await recordChecks(
      suite.database.db,
      suite.vault,
      parent,
      now,
      [
        {
          kind: 'business_registry',
          source: 'smile_id',
          outcome: 'passed',
          summary: 'The registry has the business.',
          evidence: {
            registeredName: 'Kamau & Sons <Ltd>',
            directors: [{ name: 'Wanjiru Kamau' }, { name: 'Otieno <b>Odhiambo</b>' }],
          },
        },
      ],
      now,
    );
    const [first, second] = await unitOfWork(suite.database.db, async (work) =>
      addDirectorSessions(work, parent, 2, { decisionSource: 'manual', ttlMs: 86_400_000, now, lifecycle: {} }),
    );
    await suite.database.db
      .update(verificationSessions)
      .set({ status: 'verified' })
      .where(eq(verificationSessions.id, first ?? ''));
    return { verificationUrl, secondId: second ?? '' };
  }

  it('lists the directors by their registry names, with a link to copy or send for the one still to verify', async () => {
    const { verificationUrl, secondId } = await businessWithDirectors('en');
    const page = await suite.browser.newPage();
    try {
      await page.setViewportSize(PHONE);
      await page.goto(verificationUrl);
      const section = page.getByRole('region', { name: 'Your directors verify themselves' });
      expect(await section.isVisible()).toBe(true);
      const items = section.getByRole('listitem');
      expect(await items.nth(0).textContent()).toContain('Wanjiru Kamau: Verified');
      // The registry's text is shown as text, never as markup.
      expect(await items.nth(1).textContent()).toContain('Otieno <b>Odhiambo</b>:');
      const link = page.getByLabel('Verification link for Otieno <b>Odhiambo</b>');
      expect(await link.inputValue()).toBe(`http://${VERIFY_HOST}/session/${secondId}`);
      expect(await page.getByLabel('Verification link for Wanjiru Kamau').count()).toBe(0);
      const email = section.getByRole('link', { name: 'Send by email to Otieno <b>Odhiambo</b>' });
      const href = decodeURIComponent((await email.getAttribute('href')) ?? '');
      expect(href).toContain('subject=Verify yourself as a director of Kamau & Sons <Ltd>');
      expect(href).toContain(`http://${VERIFY_HOST}/session/${secondId}`);
      expect(await section.getByRole('link', { name: 'Send by SMS to Otieno <b>Odhiambo</b>' }).isVisible()).toBe(true);
      // A link waiting to be copied is not interrupted by the processing page's reload.
      expect(await page.locator('meta[http-equiv=refresh]').count()).toBe(0);
      await expectPhoneFriendly(page);

      // Following it, the director lands on their own page, in the business's language.
      await page.goto(await link.inputValue());
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
    } finally {
      await page.close();
    }
  });

  it('says the same in Kiswahili', async () => {
    const { verificationUrl } = await businessWithDirectors('sw');
    const page = await suite.browser.newPage();
    try {
      await page.setViewportSize(PHONE);
      await page.goto(verificationUrl);
      const section = page.getByRole('region', { name: 'Wakurugenzi wako wanajithibitisha' });
      expect(await section.isVisible()).toBe(true);
      expect(await section.getByRole('link', { name: 'Tuma kwa barua pepe kwa Otieno <b>Odhiambo</b>' }).count()).toBe(
        1,
      );
      expect(await page.getByLabel('Kiungo cha uthibitishaji cha Otieno <b>Odhiambo</b>').isVisible()).toBe(true);
      await expectPhoneFriendly(page);
      await page.screenshot({ path: '/tmp/shots-directors/business-sw.png', fullPage: true });
    } finally {
      await page.close();
    }
  });
});
