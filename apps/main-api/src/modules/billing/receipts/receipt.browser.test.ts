import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { type BillingTestApp, startBillingApp } from '../../../../test/billing-fixtures.js';
import { allReceipts, pdfText } from '../../../../test/receipt-fixtures.js';

// The receipt page as a person sees it: opened in headless Chromium without JavaScript, with the member's token (as
// the app opening the notification's link sends it), read at a phone's width and printed.
describe.skipIf(missing(chromiumBrowser))('the receipt page in headless Chromium, without JavaScript', () => {
  let t: BillingTestApp;
  let launched: Browser;
  let receiptUrl: string;

  beforeAll(async () => {
    t = await startBillingApp({ listen: true });
    const paid = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'mobile_money', amount: 4_640, phone: '0712345678' },
    });
    const { reference } = paid.json() as { reference: string };
    // The sandbox answers the prompt on its own, through the callback path.
    await eventually(async () => (await allReceipts(t.db)).some((receipt) => receipt.paymentReference === reference));
    receiptUrl = `${t.url}/v1/billing/payments/${reference}/receipt`;
    launched = await launchBrowser();
    await launched.context.setExtraHTTPHeaders(await t.headers());
  });
  afterAll(async () => {
    await launched?.close();
    await t?.close();
  });

  it('reads as a document: a title, one main heading, sections, and a table whose cells have their headers', async () => {
    const page = await launched.context.newPage();
    const violations = policyViolationsOf(page);
    const opened = await page.goto(receiptUrl);
    expect(opened?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Receipt RCT-000001 - Platform Sandbox Seller');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Receipt RCT-000001']);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['From', 'Billed to', 'Payment']);
    const table = page.getByRole('table', { name: 'What was paid for' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Description',
      'Amount (KES, VAT included)',
    ]);
    expect(await table.getByRole('rowheader').allTextContents()).toEqual([
      'Net amount (excluding VAT)',
      'VAT 16%',
      'Total (VAT included)',
    ]);
    expect(
      await table
        .getByRole('row', { name: /VAT 16%/ })
        .getByRole('cell')
        .textContent(),
    ).toBe('KES 640');
    // The style is allowed by its hash: a wrong hash would leave the page unstyled and report a violation.
    expect(
      await page
        .locator('.amount')
        .first()
        .evaluate((cell) => getComputedStyle(cell).textAlign),
    ).toBe('right');
    expect(violations).toEqual([]);
    await page.close();
  });

  it("fits a phone's screen, with every text readable on its background", async () => {
    const page = await launched.context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(receiptUrl);
    await expectPhoneFriendly(page);
    await page.close();
  });

  it('prints on one A4 page with every number on it', async () => {
    const page = await launched.context.newPage();
    await page.goto(receiptUrl);
    await page.emulateMedia({ media: 'print' });
    const printed = await page.pdf({ preferCSSPageSize: true });
    const text = await pdfText(printed);
    expect(text.split('\n').length).toBeGreaterThan(10);
    for (const expected of ['Receipt RCT-000001', 'KES 4,000', 'KES 640', 'KES 4,640'])
      expect(text).toContain(expected);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await getDocument({ data: new Uint8Array(printed), verbosity: 0 }).promise;
    expect(pdf.numPages).toBe(1);
    const { view } = await pdf.getPage(1);
    // A4 in points: 595 x 842.
    expect(view.map(Math.round)).toEqual([0, 0, 595, 842]);
    await pdf.destroy();
    await page.close();
  });
});
