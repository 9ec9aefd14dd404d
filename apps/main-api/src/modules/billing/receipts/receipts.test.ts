import { randomUUID } from 'node:crypto';
import { memberships, notifications, organizations } from '@platform/db/schema';
import { addBillingPeriod, quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import {
  type BillingTestApp,
  OUTSIDER_ID,
  PAYER_ID,
  paymentByReference,
  startBillingApp,
} from '../../../../test/billing-fixtures.js';
import { insertUser, tokenFor } from '../../../../test/helpers.js';
import { allReceipts, pdfText, textOf } from '../../../../test/receipt-fixtures.js';
import { submitSandboxCheckout } from '../../../../test/sandbox-checkout.js';

// Receipts issued through the real success path (the sandbox checkout and M-Pesa prompt stand in for the providers),
// read back as the HTML page and the PDF (docs/decisions.md#billing-documents).

const SELLER = {
  SELLER_NAME: 'Kilima Mail Ltd',
  SELLER_ADDRESS: 'Kilima House, 12 Moi Avenue, Nairobi',
  SELLER_KRA_PIN: 'P051234567Q',
};
const BUYER_PIN = 'A123456789Z';
const COLLEAGUE_ID = 'user_colleague';
/** growth, 5,001 seats, yearly: 5,001 x 90 x 10, above the default card limit (raised here). */
const LARGE_PURCHASE = { plan: 'growth', seats: 5_001, billingCycle: 'yearly' } as const;

let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp({ env: { ...SELLER, MAX_AMOUNT_CARD: '5000000' } });
  await t.db
    .update(organizations)
    .set({ name: 'Acme Traders', kraPin: BUYER_PIN })
    .where(eq(organizations.id, t.organizationId));
  await insertUser(t.db, { id: COLLEAGUE_ID });
  await t.db.insert(memberships).values({ organizationId: t.organizationId, userId: COLLEAGUE_ID, role: 'member' });
});
afterAll(async () => {
  await t?.close();
});

async function pay(body: object): Promise<{ reference: string; checkoutUrl?: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(),
    payload: body,
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function receipt(reference: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/billing/payments/${reference}/receipt`,
    headers: { ...(await t.headers()), ...headers },
  });
}

describe('the receipt of a growth 5,001-seat yearly purchase (KES 4,500,900)', () => {
  let reference: string;

  beforeAll(async () => {
    const started = await pay({
      method: 'card',
      amount: 0,
      metadata: { type: 'mail_subscription', ...LARGE_PURCHASE },
    });
    reference = started.reference;
    if (started.checkoutUrl === undefined) throw new Error('no checkout URL');
    expect((await submitSandboxCheckout(t, started.checkoutUrl, 'pay')).statusCode).toBe(303);
  });

  it('is issued once the payment succeeds, numbered RCT-000001, with the VAT in the total', async () => {
    expect(quote({ plan: 'growth', seats: 5_001, cycle: 'yearly' }).total).toBe(4_500_900);
    const payment = await paymentByReference(t.db, reference);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 4_500_900 });
    const [issued, ...others] = await allReceipts(t.db);
    expect(others).toEqual([]);
    expect(issued).toMatchObject({
      number: 'RCT-000001',
      sequence: 1,
      paymentId: payment.id,
      total: 4_500_900,
      net: 3_880_086,
      vat: 620_814,
      vatRatePercent: 16,
      sellerName: SELLER.SELLER_NAME,
      sellerKraPin: SELLER.SELLER_KRA_PIN,
      buyerName: 'Acme Traders',
      buyerKraPin: BUYER_PIN,
      plan: 'growth',
      seats: 5_001,
      billingCycle: 'yearly',
    });
  });

  it('answers an HTML page with the numbers, the seller, the buyer, what was bought and how it was paid', async () => {
    const response = await receipt(reference);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
    const payment = await paymentByReference(t.db, reference);
    const start = payment.completedAt?.toISOString().slice(0, 10) ?? '';
    const end = addBillingPeriod(start, 'yearly');
    const day = (iso: string) =>
      new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-KE', { day: 'numeric', month: 'long', year: 'numeric' });
    const text = textOf(response.body);
    for (const expected of [
      'Receipt RCT-000001',
      'Kilima Mail Ltd',
      'Kilima House, 12 Moi Avenue, Nairobi',
      'KRA PIN: P051234567Q',
      'Acme Traders',
      `KRA PIN: ${BUYER_PIN}`,
      'Mail subscription: growth plan',
      '5,001 seats, billed yearly',
      `Period: ${day(start)} to ${day(end)}`,
      'Net amount (excluding VAT) KES 3,880,086',
      'VAT 16% KES 620,814',
      'Total (VAT included) KES 4,500,900',
      `Payment reference ${reference}`,
      'Paid by Card (Sandbox)',
    ]) {
      expect(text).toContain(expected);
    }
    // A card payment has no M-Pesa receipt number; its provider reference is ours, so none is written.
    expect(await eventuallyReceiptOf(reference)).toMatchObject({ mpesaReceiptNumber: null });
    expect(text).not.toContain('M-Pesa receipt');
    expect(text).not.toContain('Provider reference');
  });

  it('answers the same receipt as a PDF for Accept: application/pdf', async () => {
    const response = await receipt(reference, { accept: 'application/pdf' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="receipt-RCT-000001.pdf"');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(response.rawPayload);
    for (const expected of [
      'Receipt RCT-000001',
      'Kilima Mail Ltd',
      'KRA PIN: P051234567Q',
      `KRA PIN: ${BUYER_PIN}`,
      '5,001 seats, billed yearly',
      'Net amount (excluding VAT) KES 3,880,086',
      'VAT 16% KES 620,814',
      'Total (VAT included) KES 4,500,900',
      reference,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("tells every member of the organization, with the receipt's link", async () => {
    for (const userId of [PAYER_ID, COLLEAGUE_ID]) {
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, userId));
      expect(told.filter((note) => note.title === 'Receipt issued')).toEqual([
        expect.objectContaining({
          organizationId: t.organizationId,
          message: `Receipt RCT-000001: KES 4,500,900 paid (${reference}).`,
          actionUrl: `/dashboard/billing/payments/${reference}/receipt?org=${t.organizationId}`,
        }),
      ]);
    }
  });

  it("gives another organization's member the 404 of an unknown payment", async () => {
    const outsider = {
      authorization: `Bearer ${await tokenFor(OUTSIDER_ID)}`,
      'x-organization-id': t.otherOrganizationId,
    };
    const theirs = await receipt(reference, outsider);
    const unknown = await receipt(`PAY-${randomUUID()}`, outsider);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ ...unknown.json(), requestId: expect.any(String) });
    expect(theirs.json()).toMatchObject({ success: false, code: 'not_found', error: 'Receipt not found' });
  });
});

describe('receipts of other payments', () => {
  it('has none for a payment that has not succeeded: pending, then declined', async () => {
    const started = await pay({ method: 'card', amount: 700 });
    expect((await receipt(started.reference)).statusCode).toBe(404);
    if (started.checkoutUrl === undefined) throw new Error('no checkout URL');
    await submitSandboxCheckout(t, started.checkoutUrl, 'decline');
    expect((await paymentByReference(t.db, started.reference)).status).toBe('failed');
    const answer = await receipt(started.reference);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Receipt not found' });
    expect((await allReceipts(t.db)).map((issued) => issued.paymentReference)).not.toContain(started.reference);
  });

  it('answers 404 for a reference that is not a payment reference', async () => {
    const answer = await receipt('RCT-000001');
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Receipt not found' });
  });

  it('numbers the next receipt on, for an M-Pesa wallet top-up', async () => {
    const before = await allReceipts(t.db);
    const { reference } = await pay({ method: 'mobile_money', amount: 2_320, phone: '0712345678' });
    // The sandbox answers the prompt itself, at once (SANDBOX_STK_DELAY_MS 0), through the callback path.
    const issued = await eventuallyReceiptOf(reference);
    expect(issued).toMatchObject({
      sequence: before.length + 1,
      purpose: 'wallet_topup',
      total: 2_320,
      net: 2_000,
      vat: 320,
      channel: 'mobile_money',
      periodStart: null,
    });
    const text = textOf((await receipt(reference)).body);
    expect(text).toContain(`Receipt ${issued.number}`);
    expect(text).toContain('Verification wallet top-up Credited to the live wallet');
    expect(text).toContain('Paid by M-Pesa (Sandbox)');
    // The sandbox's callback carries an M-Pesa receipt number as Daraja's does (docs/decisions.md#m-pesa-receipt-number).
    expect(issued.mpesaReceiptNumber).toMatch(/^SBX[0-9A-F]{7}$/);
    expect(text).toContain(`M-Pesa receipt ${issued.mpesaReceiptNumber}`);
    expect(text).toContain('Total (VAT included) KES 2,320');
  });

  it('writes a buyer without a KRA PIN as such, and escapes what the organization named itself', async () => {
    await t.db
      .update(organizations)
      .set({ name: '<script>alert(1)</script> & Sons', kraPin: null })
      .where(eq(organizations.id, t.organizationId));
    const { reference } = await pay({ method: 'mobile_money', amount: 100, phone: '0712345678' });
    await eventuallyReceiptOf(reference);
    const page = (await receipt(reference)).body;
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons');
    expect(textOf(page)).toContain('KRA PIN: not given');
    const pdf = await pdfText((await receipt(reference, { accept: 'application/pdf' })).rawPayload);
    expect(pdf).toContain('<script>alert(1)</script> & Sons');
    expect(pdf).toContain('KRA PIN: not given');
  });
});

/** The receipt of `reference` once its payment has succeeded (the sandbox answers M-Pesa prompts on its own). */
function eventuallyReceiptOf(reference: string) {
  return eventually(async () => (await allReceipts(t.db)).find((issued) => issued.paymentReference === reference), {
    what: `The receipt of ${reference}`,
  });
}
