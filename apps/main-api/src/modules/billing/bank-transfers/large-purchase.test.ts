import { organizations } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  allConfirmations,
  confirmTransfer,
  FINANCE_ID,
  payByTransfer,
  SELLER_WITH_BANK,
  startTransferApp,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { paymentByReference } from '../../../../test/billing-fixtures.js';
import { allReceipts, pdfText, textOf } from '../../../../test/receipt-fixtures.js';

// The "done when": a growth 5,001-seat yearly subscription (4,500,900 KES, above the card limit) bought by
// bank transfer and confirmed by finance, end to end through the routes, on PostgreSQL: the instructions, the invoice
// as a page and a PDF with its VAT, a first transfer of part of the price recorded and not applied, then the rest
// confirmed (split transfers add up: docs/decisions.md#split-bank-transfers): the subscription active with its 5,001
// seats and the receipt issued.
describe.skipIf(missing(postgresServer))('a growth 5,001-seat yearly subscription bought by bank transfer', () => {
  const PRICE = 4_500_900;
  const PURCHASE = { type: 'mail_subscription', plan: 'growth', seats: 5_001, billingCycle: 'yearly' } as const;
  let t: TransferTestApp;
  let reference: string;
  let transferReference: string;
  let invoiceNumber: string;

  beforeAll(async () => {
    t = await startTransferApp({ env: SELLER_WITH_BANK });
    await t.db
      .update(organizations)
      .set({ name: 'Acme Traders', kraPin: 'A123456789Z' })
      .where(eq(organizations.id, t.organizationId));
  });
  afterAll(async () => {
    await t?.close();
  });

  async function subscription() {
    const response = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  }

  it('is priced above the card limit, so the card refuses it and points to bank transfer', async () => {
    expect(quote({ plan: 'growth', seats: 5_001, cycle: 'yearly' }).total).toBe(PRICE);
    const byCard = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'card', amount: 0, metadata: PURCHASE },
    });
    expect(byCard.statusCode).toBe(400);
    expect(byCard.json().error).toContain('pay it by bank transfer (method bank_transfer) instead');
  });

  it('answers the bank account, the reference to write and the invoice', async () => {
    const response = await payByTransfer(t, { amount: 0, metadata: PURCHASE });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    reference = body.reference;
    transferReference = body.instructions.reference;
    invoiceNumber = body.invoice.number;
    expect(body).toMatchObject({
      success: true,
      instructions: {
        bankName: 'Kenya Commercial Bank',
        accountName: 'Kilima Mail Ltd',
        accountNumber: '1234567890',
        branch: 'Moi Avenue, Nairobi',
        reference: expect.stringMatching(/^BT[0-9A-HJKMNP-TV-Z]{8}$/),
      },
      invoice: { number: 'INV-000001', amount: PRICE, url: `/v1/billing/payments/${reference}/invoice` },
    });
    expect(await paymentByReference(t.db, reference)).toMatchObject({ status: 'pending', amount: PRICE });
    expect(await subscription()).toBeNull();
  });

  it('shows the invoice as a page and as a PDF, with VAT 620,814 and net 3,880,086', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/invoice`,
      headers: await t.headers(),
    });
    expect(page.statusCode).toBe(200);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/invoice`,
      headers: await t.headers({ accept: 'application/pdf' }),
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const texts = [textOf(page.body), await pdfText(pdf.rawPayload)];
    for (const text of texts) {
      for (const expected of [
        'Invoice INV-000001',
        'Kilima Mail Ltd',
        'KRA PIN: P051234567Q',
        'Acme Traders',
        'KRA PIN: A123456789Z',
        'Mail subscription: growth plan',
        '5,001 seats, billed yearly',
        'Net amount (excluding VAT) KES 3,880,086',
        'VAT 16% KES 620,814',
        'Total (VAT included) KES 4,500,900',
        transferReference,
        '1234567890',
      ]) {
        expect(text).toContain(expected);
      }
    }
    expect(texts[0]).toContain('Payable within 14 days');
  });

  it('records a first transfer of part of the price and applies nothing yet', async () => {
    const response = await confirmTransfer(t, reference, { amountReceived: 4_500_000, bankReference: 'FT26330SHORT' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.outcome).toBe('partial');
    expect(await subscription()).toBeNull();
    expect(await allReceipts(t.db)).toEqual([]);
    expect(await allConfirmations(t.db)).toEqual([
      expect.objectContaining({
        confirmedByUserId: FINANCE_ID,
        amountReceived: 4_500_000,
        amountDue: PRICE,
        receivedBefore: 0,
        bankReference: 'FT26330SHORT',
        outcome: 'partial',
      }),
    ]);
  });

  it('applies the price once the rest arrives: the subscription is active with 5,001 seats, the receipt issued', async () => {
    // Finance reads the reference off the bank statement: the payer sent the last 900 KES in a second transfer.
    const response = await confirmTransfer(t, transferReference, {
      amountReceived: PRICE - 4_500_000,
      bankReference: 'FT26330FULL',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      outcome: 'applied',
      transfer: { status: 'succeeded', invoiceNumber, bankReference: 'FT26330FULL', receiptNumber: 'RCT-000001' },
    });
    expect(await subscription()).toMatchObject({
      plan: 'growth',
      seats: 5_001,
      billingCycle: 'yearly',
      status: 'active',
      price: { total: PRICE },
    });
    const payment = await paymentByReference(t.db, reference);
    expect(payment).toMatchObject({ status: 'succeeded', providerReference: 'FT26330FULL' });
    expect(await allReceipts(t.db)).toEqual([
      expect.objectContaining({
        number: 'RCT-000001',
        paymentId: payment.id,
        total: PRICE,
        net: 3_880_086,
        vat: 620_814,
        plan: 'growth',
        seats: 5_001,
        billingCycle: 'yearly',
        channel: 'bank_transfer',
      }),
    ]);
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/receipt`,
      headers: await t.headers(),
    });
    expect(textOf(receipt.body)).toContain('VAT 16% KES 620,814');
    const invoice = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/invoice`,
      headers: await t.headers(),
    });
    expect(textOf(invoice.body)).toContain('receipt RCT-000001');
  });
});
