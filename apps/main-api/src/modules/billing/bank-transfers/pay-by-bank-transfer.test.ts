import { randomUUID } from 'node:crypto';
import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allInvoices,
  auditEventsOf,
  payByTransfer,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { COLLEAGUE_ID, LARGE_TOP_UP, type Started, useTransferSuite } from '../../../../test/bank-transfer-suite.js';
import { allPayments, OUTSIDER_ID, PAYER_ID, paymentByReference } from '../../../../test/billing-fixtures.js';
import { tokenFor } from '../../../../test/helpers.js';
import { pdfText, textOf } from '../../../../test/receipt-fixtures.js';

// Paying by bank transfer (docs/decisions.md#bank-transfers): the pay request's answer, who is told, the large purchase
// only a transfer pays, a retry, and the invoice as a page and a PDF.

const DAY_MS = 86_400_000;
const suite = useTransferSuite();
const { started, invoiceOf } = suite;
let t: TransferTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/billing/pay with method bank_transfer', () => {
  it('answers a pending payment with the bank account, the reference to write and the invoice', async () => {
    const response = await payByTransfer(t, { amount: LARGE_TOP_UP });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Started>();
    expect(Object.keys(body).sort()).toEqual(['instructions', 'invoice', 'message', 'reference', 'success']);
    expect(body.instructions).toEqual({
      bankName: 'Kenya Commercial Bank',
      accountName: 'Kilima Mail Ltd',
      accountNumber: '1234567890',
      branch: 'Moi Avenue, Nairobi',
      reference: expect.stringMatching(/^BT[0-9A-HJKMNP-TV-Z]{8}$/),
    });
    const payment = await paymentByReference(t.db, body.reference);
    const started = payment.createdAt.getTime();
    expect(body.invoice).toEqual({
      number: expect.stringMatching(/^INV-\d{6}$/),
      url: `/v1/billing/payments/${body.reference}/invoice`,
      amount: LARGE_TOP_UP,
      dueAt: new Date(started + 14 * DAY_MS).toISOString(),
      expiresAt: new Date(started + 30 * DAY_MS).toISOString(),
    });
    expect(body.message).toContain('Transfer KES 2,000,000 to Kenya Commercial Bank, account 1234567890');
    expect(body.message).toContain(`with the reference ${body.instructions.reference}`);

    expect(payment).toMatchObject({
      method: 'bank_transfer',
      channel: 'bank_transfer',
      provider: 'bank_transfer',
      purpose: 'wallet_topup',
      status: 'pending',
      amount: LARGE_TOP_UP,
      accountReference: body.instructions.reference,
      providerReference: null,
      nextCheckAt: new Date(body.invoice.expiresAt),
    });
    const [invoice, ...others] = await allInvoices(t.db);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      number: body.invoice.number,
      paymentId: payment.id,
      total: LARGE_TOP_UP,
      net: 1_724_138,
      vat: 275_862,
      transferReference: body.instructions.reference,
      bankAccountNumber: '1234567890',
      sandbox: false,
    });

    const view = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${body.reference}`,
      headers: await t.headers(),
    });
    expect(view.json().data).toMatchObject({
      status: 'pending',
      method: 'bank_transfer',
      channel: 'bank_transfer',
      invoiceNumber: body.invoice.number,
      transferReference: body.instructions.reference,
      receiptNumber: null,
    });
    const [startedEvent] = await auditEventsOf(t.db, t.organizationId, 'payment.started');
    expect(startedEvent).toMatchObject({ actorUserId: PAYER_ID, targetId: body.reference });
    expect(startedEvent?.details).toMatchObject({ method: 'bank_transfer', amount: LARGE_TOP_UP });
  });

  it("tells every member of the organization, with the invoice's link", async () => {
    const { reference, invoice, instructions } = await started({ amount: 50_000 });
    for (const userId of [PAYER_ID, COLLEAGUE_ID]) {
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, userId));
      expect(told).toEqual([
        expect.objectContaining({
          title: 'Invoice issued',
          organizationId: t.organizationId,
          message: expect.stringContaining(
            `Invoice ${invoice.number}: KES 50,000 to pay by bank transfer by `,
          ) as unknown as string,
          actionUrl: `/dashboard/billing/payments/${reference}/invoice?org=${t.organizationId}`,
        }),
      ]);
      expect(told[0]?.message).toContain(`with the reference ${instructions.reference} (${reference})`);
    }
  });

  it('buys a subscription whose price is above the card limit, and tells a card payer to use it', async () => {
    const subscription = { type: 'mail_subscription', plan: 'growth', seats: 5_001, billingCycle: 'yearly' };
    const byCard = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'card', amount: 0, metadata: subscription },
    });
    expect(byCard.statusCode).toBe(400);
    expect(byCard.json().error).toBe(
      'The price of this subscription (KES 4,500,900) is above the KES 1,000,000 limit of card payments; pay it by ' +
        'bank transfer (method bank_transfer) instead',
    );
    const topUp = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'mobile_money', amount: 150_001, phone: '0712345678' },
    });
    expect(topUp.json().error).toBe(
      'amount must be at most KES 150,000 for M-Pesa payments; pay it by bank transfer (method bank_transfer) instead',
    );
    expect(topUp.json().details).toEqual([
      {
        path: '/amount',
        message:
          'must be at most KES 150,000 for M-Pesa payments; pay it by bank transfer (method bank_transfer) instead',
      },
    ]);
    expect(await allPayments(t.db)).toEqual([]);

    const { reference } = await started({ amount: 0, metadata: subscription });
    expect(await paymentByReference(t.db, reference)).toMatchObject({
      purpose: 'mail_subscription',
      amount: 4_500_900,
      plan: 'growth',
      seats: 5_001,
      billingCycle: 'yearly',
    });
  });

  it.each([
    ['a phone', { amount: 100, phone: '0712345678' }, '/phone'],
    ['a saved method', { amount: 100, paymentMethodId: randomUUID() }, '/paymentMethodId'],
    ['no amount for a top-up', {}, '/amount'],
    ['an amount above the bank transfer limit', { amount: 5_000_001 }, '/amount'],
  ])('refuses %s with 400 and writes nothing', async (_label, body, path) => {
    const response = await payByTransfer(t, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(response.json().error).not.toContain('pay it by bank transfer');
    expect(await allPayments(t.db)).toEqual([]);
    expect(await allInvoices(t.db)).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key with the same instructions: one payment, one invoice', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const first = await payByTransfer(t, { amount: 12_000 }, key);
    const again = await payByTransfer(t, { amount: 12_000 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await allPayments(t.db)).toHaveLength(1);
    expect(await allInvoices(t.db)).toHaveLength(1);
  });

  it('is left alone by the reconciliation job: no provider can be asked about it', async () => {
    const { reference } = await started({ amount: 3_000 });
    t.clock.advance(2 * DAY_MS);
    expect(await t.reconcile()).toEqual({ checked: 0, settled: 0 });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
  });
});

describe('GET /v1/billing/payments/:reference/invoice', () => {
  it('answers the invoice as a page: seller, buyer, what is billed, the VAT, the bank account and the reference', async () => {
    const { reference, invoice, instructions } = await started({ amount: LARGE_TOP_UP });
    const response = await invoiceOf(reference);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
    const text = textOf(response.body);
    for (const expected of [
      `Invoice ${invoice.number}`,
      'Status Awaiting payment',
      'Kilima Mail Ltd',
      'KRA PIN: P051234567Q',
      'What is billed',
      'Verification wallet top-up Credited to the live wallet when the transfer is confirmed',
      'Net amount (excluding VAT) KES 1,724,138',
      'VAT 16% KES 275,862',
      'Total (VAT included) KES 2,000,000',
      'How to pay',
      'Bank Kenya Commercial Bank',
      'Account number 1234567890',
      'Branch Moi Avenue, Nairobi',
      `Reference to write ${instructions.reference}`,
      'Amount to transfer KES 2,000,000',
      'Payable within 14 days',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('answers the same invoice as a PDF for Accept: application/pdf', async () => {
    const { reference, invoice, instructions } = await started({ amount: LARGE_TOP_UP });
    const response = await invoiceOf(reference, { accept: 'application/pdf' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="invoice-${invoice.number}.pdf"`);
    const text = await pdfText(response.rawPayload);
    for (const expected of [
      `Invoice ${invoice.number}`,
      'Payable by',
      'Total (VAT included) KES 2,000,000',
      'VAT 16% KES 275,862',
      instructions.reference,
      '1234567890',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("gives another payment, another organization's and an unknown reference the same 404", async () => {
    const { reference } = await started({ amount: 1_000 });
    const card = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'card', amount: 1_000 },
    });
    const outsider = {
      authorization: `Bearer ${await tokenFor(OUTSIDER_ID)}`,
      'x-organization-id': t.otherOrganizationId,
    };
    for (const answer of [
      await invoiceOf(card.json().reference),
      await invoiceOf(reference, outsider),
      await invoiceOf(`PAY-${randomUUID()}`),
      await invoiceOf('INV-000001'),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Invoice not found' });
    }
  });

  it('says when it is overdue, still payable until it expires', async () => {
    const { reference } = await started({ amount: 1_000 });
    t.clock.advance(15 * DAY_MS);
    expect(textOf((await invoiceOf(reference)).body)).toContain('Status Overdue: the transfer is still accepted until');
  });
});
