import { randomUUID } from 'node:crypto';
import { ledgerTransactions, memberships, notifications, paymentEvents } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allConfirmations,
  allInvoices,
  auditEventsOf,
  confirmTransfer,
  FINANCE_ID,
  PLATFORM_ADMIN_ID,
  payByTransfer,
  SELLER_WITH_BANK,
  startTransferApp,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import {
  alarmsRaised,
  allPayments,
  deletePayments,
  liveBalance,
  OUTSIDER_ID,
  PAYER_ID,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { insertUser, tokenFor } from '../../../../test/helpers.js';
import { allReceipts, pdfText, textOf } from '../../../../test/receipt-fixtures.js';
import { clearBilling, creditBalanceOf, titlesNotified } from '../../../../test/subscription-fixtures.js';
import { BANK_REFERENCE_RULE } from './bank-reference.js';

// Paying by bank transfer and the platform's finance staff confirming it (docs/decisions.md#bank-transfers): the pay
// request's answer and invoice, the finance routes, a confirmation of the exact amount through the success path every
// payment takes, one of another amount recorded and never applied, and the expiry after 30 days.

const DAY_MS = 86_400_000;
const COLLEAGUE_ID = 'user_transfer_colleague';
/** Above the 1,000,000 KES card limit: only a bank transfer pays it. */
const LARGE_TOP_UP = 2_000_000;

let t: TransferTestApp;

beforeAll(async () => {
  t = await startTransferApp({ env: { ...SELLER_WITH_BANK, MAX_AMOUNT_BANK_TRANSFER: '5000000' } });
  await insertUser(t.db, { id: COLLEAGUE_ID });
  await t.db.insert(memberships).values({ organizationId: t.organizationId, userId: COLLEAGUE_ID, role: 'member' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await deletePayments(t.db);
  await t.db.delete(notifications);
  t.clock.set(new Date());
});

interface Started {
  reference: string;
  message: string;
  instructions: { bankName: string; accountName: string; accountNumber: string; branch: string; reference: string };
  invoice: { number: string; url: string; amount: number; dueAt: string; expiresAt: string };
}

async function started(body: object, extra: Record<string, string> = {}): Promise<Started> {
  const response = await payByTransfer(t, body, extra);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function invoiceOf(reference: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/billing/payments/${reference}/invoice`,
    headers: { ...(await t.headers()), ...headers },
  });
}

async function listTransfers(query = '', userId = FINANCE_ID) {
  return t.app.inject({ method: 'GET', url: `/v1/finance/payments${query}`, headers: await t.financeHeaders(userId) });
}

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
          actionUrl: `/v1/billing/payments/${reference}/invoice`,
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

describe('GET /v1/finance/payments', () => {
  it("lists every organization's transfers for finance, filtered by status or by a reference as on a statement", async () => {
    const first = await started({ amount: 1_000 });
    const second = await started({ amount: 2_000 });
    const listed = await listTransfers();
    expect(listed.statusCode, listed.body).toBe(200);
    const { transfers, nextCursor } = listed.json().data;
    expect(nextCursor).toBeNull();
    expect(transfers.map((transfer: { reference: string }) => transfer.reference)).toEqual([
      second.reference,
      first.reference,
    ]);
    expect(transfers[1]).toEqual({
      reference: first.reference,
      transferReference: first.instructions.reference,
      invoiceNumber: first.invoice.number,
      organization: { id: t.organizationId, name: 'Test organization' },
      status: 'pending',
      purpose: 'wallet_topup',
      amount: 1_000,
      amountReceived: 0,
      currency: 'KES',
      subscription: null,
      bankReference: null,
      receiptNumber: null,
      confirmations: [],
      createdAt: expect.any(String),
      dueAt: first.invoice.dueAt,
      expiresAt: first.invoice.expiresAt,
      completedAt: null,
    });
    const code = first.instructions.reference.toLowerCase();
    const asTyped = `${code.slice(0, 2)} ${code.slice(2, 6)}-${code.slice(6)}`;
    const found = (await listTransfers(`?reference=${encodeURIComponent(asTyped)}`)).json().data.transfers;
    expect(found.map((transfer: { reference: string }) => transfer.reference)).toEqual([first.reference]);
    expect((await listTransfers('?status=succeeded')).json().data.transfers).toEqual([]);
    expect((await listTransfers('?reference=nothing')).json().data.transfers).toEqual([]);
    expect((await listTransfers('?limit=1')).json().data.nextCursor).toEqual(expect.any(String));
  });

  it("refuses everyone but the platform's finance members, its admins and the payer included", async () => {
    for (const userId of [PLATFORM_ADMIN_ID, PAYER_ID]) {
      const refused = await listTransfers('', userId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role finance' });
    }
  });
});

describe('POST /v1/finance/payments/:reference/confirm', () => {
  it('applies the exact amount once through the success path: credited, receipt issued, everyone told', async () => {
    const { reference, instructions, invoice } = await started({ amount: LARGE_TOP_UP });
    const before = await liveBalance(t.db, t.organizationId);
    // Finance copies the reference from the bank statement, in its own way.
    const response = await confirmTransfer(t, instructions.reference.toLowerCase(), {
      amountReceived: LARGE_TOP_UP,
      bankReference: 'FT26330XYZ12',
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data, message } = response.json();
    expect(data.outcome).toBe('applied');
    expect(message).toMatch(/^Transfer confirmed: KES 2,000,000 applied to PAY-.*, receipt RCT-\d{6}$/);
    expect(data.transfer).toMatchObject({
      status: 'succeeded',
      bankReference: 'FT26330XYZ12',
      receiptNumber: expect.stringMatching(/^RCT-\d{6}$/),
      completedAt: expect.any(String),
    });
    expect(data.transfer.confirmations.map((c: { outcome: string }) => c.outcome)).toEqual(['applied']);

    const payment = await paymentByReference(t.db, reference);
    expect(payment).toMatchObject({ status: 'succeeded', providerReference: 'FT26330XYZ12' });
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
    const [changed] = await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'status_changed'));
    expect(changed?.source).toBe('finance');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + LARGE_TOP_UP);
    expect(await topUpsOf(t.db, reference)).toBe(1);
    const [receipt, ...more] = await allReceipts(t.db);
    expect(more).toEqual([]);
    expect(receipt).toMatchObject({
      paymentId: payment.id,
      total: LARGE_TOP_UP,
      channel: 'bank_transfer',
      provider: 'bank_transfer',
      providerReference: 'FT26330XYZ12',
    });
    const receiptPage = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/receipt`,
      headers: await t.headers(),
    });
    expect(textOf(receiptPage.body)).toContain('Paid by Bank transfer Bank reference FT26330XYZ12');
    const invoicePage = textOf((await invoiceOf(reference)).body);
    expect(invoicePage).toContain(`Invoice ${invoice.number}`);
    expect(invoicePage).toContain(`, receipt ${receipt?.number}`);
    expect(invoicePage).toContain('Paid in full');

    for (const userId of [PAYER_ID, COLLEAGUE_ID]) {
      const titles = (await t.db.select().from(notifications).where(eq(notifications.userId, userId))).map(
        (note) => note.title,
      );
      expect(titles).toContain('Receipt issued');
    }
    expect((await auditEventsOf(t.db, t.platformOrganizationId, 'bank_transfer.confirmed')).at(-1)).toMatchObject({
      actorUserId: FINANCE_ID,
      targetId: reference,
      details: { amountReceived: LARGE_TOP_UP, bankReference: 'FT26330XYZ12' },
    });
    expect((await auditEventsOf(t.db, t.organizationId, 'payment.succeeded')).at(-1)).toMatchObject({
      actorUserId: null,
      targetId: reference,
      details: { source: 'finance', from: 'pending', to: 'succeeded' },
    });

    // Again, even with the same bank reference: applied once, nothing more recorded.
    const again = await confirmTransfer(t, reference, { amountReceived: LARGE_TOP_UP, bankReference: 'FT26330XYZ12' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      error: 'This transfer was already confirmed (bank reference FT26330XYZ12): it is applied once',
    });
    expect(await allConfirmations(t.db)).toHaveLength(1);
    expect(await topUpsOf(t.db, reference)).toBe(1);
  });

  it('refuses a bank reference that already confirmed another transfer: one statement line pays once', async () => {
    const first = await started({ amount: 700 });
    const second = await started({ amount: 700 });
    expect((await confirmTransfer(t, first.reference, { amountReceived: 700, bankReference: 'FT1' })).statusCode).toBe(
      200,
    );
    const reused = await confirmTransfer(t, second.reference, { amountReceived: 700, bankReference: ' ft1 ' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe(
      `The bank reference FT1 was already recorded for ${first.reference}: one line of a bank statement is recorded once`,
    );
    expect((await paymentByReference(t.db, second.reference)).status).toBe('pending');
    expect(await allConfirmations(t.db)).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key as the first confirmation, applying once', async () => {
    const { reference } = await started({ amount: 900 });
    const key = { 'idempotency-key': randomUUID() };
    const body = { amountReceived: 900, bankReference: 'FT900' };
    const first = await confirmTransfer(t, reference, body, { headers: key });
    const again = await confirmTransfer(t, reference, body, { headers: key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await allConfirmations(t.db)).toHaveLength(1);
  });

  it('gives 404 for a payment that is no bank transfer, an unknown and a malformed reference', async () => {
    const card = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'card', amount: 1_000 },
    });
    for (const reference of [card.json().reference, `PAY-${randomUUID()}`, 'BT00000000', 'nothing']) {
      const answer = await confirmTransfer(t, reference, { amountReceived: 1_000, bankReference: 'FT404' });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Bank transfer not found' });
    }
    expect(await allConfirmations(t.db)).toEqual([]);
  });

  it.each([
    ['no body', undefined, ''],
    ['a zero amount', { amountReceived: 0, bankReference: 'FT1' }, '/amountReceived'],
    ['an amount as a string', { amountReceived: '900', bankReference: 'FT1' }, '/amountReceived'],
    ['a fractional amount', { amountReceived: 9.5, bankReference: 'FT1' }, '/amountReceived'],
    ['no bank reference', { amountReceived: 900 }, '/bankReference'],
    ['an empty bank reference', { amountReceived: 900, bankReference: '' }, '/bankReference'],
    ['a bank reference with a line break', { amountReceived: 900, bankReference: 'FT1\nFT2' }, '/bankReference'],
    ['an unknown field', { amountReceived: 900, bankReference: 'FT1', note: 'x' }, ''],
  ])('refuses %s with 400 and records nothing', async (_label, body, path) => {
    const { reference } = await started({ amount: 900 });
    const answer = await confirmTransfer(t, reference, body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toBe('validation_error');
    if (path !== '') expect(JSON.stringify(answer.json().details)).toContain(path);
    expect(await allConfirmations(t.db)).toEqual([]);
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
  });

  it("refuses everyone but the platform's finance members, and records nothing", async () => {
    const { reference } = await started({ amount: 900 });
    for (const userId of [PLATFORM_ADMIN_ID, PAYER_ID]) {
      const refused = await confirmTransfer(t, reference, { amountReceived: 900, bankReference: 'FT1' }, { userId });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role finance' });
    }
    expect(await allConfirmations(t.db)).toEqual([]);
  });
});

describe('split transfers (docs/decisions.md#split-bank-transfers)', () => {
  /** core, 2,200 seats, yearly: 60 x 2,200 x 10 = 1,320,000 KES, the split purchase. */
  const SPLIT_PURCHASE = { type: 'mail_subscription', plan: 'core', seats: 2_200, billingCycle: 'yearly' } as const;
  const SPLIT_PRICE = 1_320_000;

  beforeEach(async () => {
    await clearBilling(t.db);
  });

  async function subscriptionNow() {
    const response = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    return response.json().data;
  }

  it('adds 1,000,000 and 320,000 up to a 1,320,000 invoice: partial, then paid, each in the audit log', async () => {
    const { reference } = await started({ amount: 0, metadata: SPLIT_PURCHASE });
    expect((await paymentByReference(t.db, reference)).amount).toBe(SPLIT_PRICE);

    const first = await confirmTransfer(t, reference, { amountReceived: 1_000_000, bankReference: 'FT-SPLIT-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(
      "Recorded: KES 1,000,000 received, KES 1,000,000 of the invoice's KES 1,320,000 so far. The invoice stays open: " +
        'confirm the rest (KES 320,000) when it arrives',
    );
    expect(first.json().data).toMatchObject({
      outcome: 'partial',
      transfer: { status: 'pending', amountReceived: 1_000_000, receiptNumber: null },
    });
    expect(await subscriptionNow()).toBeNull();
    expect(await allReceipts(t.db)).toEqual([]);

    const second = await confirmTransfer(t, reference, { amountReceived: 320_000, bankReference: 'FT-SPLIT-2' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().message).toMatch(
      /^Transfer confirmed: KES 1,320,000 in all \(this transfer KES 320,000\) applied to PAY-.*, receipt RCT-\d{6}$/,
    );
    expect(second.json().data).toMatchObject({
      outcome: 'applied',
      transfer: { status: 'succeeded', amountReceived: SPLIT_PRICE, bankReference: 'FT-SPLIT-2' },
    });
    expect(second.json().data.transfer.confirmations).toEqual([
      expect.objectContaining({ amountReceived: 1_000_000, receivedBefore: 0, outcome: 'partial' }),
      expect.objectContaining({ amountReceived: 320_000, receivedBefore: 1_000_000, outcome: 'applied' }),
    ]);
    expect(await subscriptionNow()).toMatchObject({
      plan: 'core',
      seats: 2_200,
      billingCycle: 'yearly',
      status: 'active',
    });
    expect(await allReceipts(t.db)).toEqual([expect.objectContaining({ total: SPLIT_PRICE })]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);

    const partial = await auditEventsOf(t.db, t.platformOrganizationId, 'bank_transfer.partial');
    expect(partial.at(-1)).toMatchObject({
      actorUserId: FINANCE_ID,
      targetId: reference,
      details: { amountReceived: 1_000_000, receivedBefore: 0, amountDue: SPLIT_PRICE, bankReference: 'FT-SPLIT-1' },
    });
    const applied = await auditEventsOf(t.db, t.platformOrganizationId, 'bank_transfer.confirmed');
    expect(applied.at(-1)).toMatchObject({
      targetId: reference,
      details: { amountReceived: 320_000, receivedBefore: 1_000_000, bankReference: 'FT-SPLIT-2' },
    });
    const succeeded = await auditEventsOf(t.db, t.organizationId, 'payment.succeeded');
    expect(succeeded.filter((event) => event.targetId === reference)).toHaveLength(1);
  });

  it("puts what a subscription's transfers bring in beyond its invoice on the credit balance, once", async () => {
    const { reference } = await started({ amount: 0, metadata: SPLIT_PURCHASE });
    await confirmTransfer(t, reference, { amountReceived: 1_000_000, bankReference: 'FT-OVER-1' });
    const over = await confirmTransfer(t, reference, { amountReceived: 400_000, bankReference: 'FT-OVER-2' });
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json().data.outcome).toBe('applied');
    expect(over.json().message).toContain('; KES 80,000 beyond the invoice went to the credit balance');
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(80_000);
    expect(await titlesNotified(t.db, PAYER_ID)).toContain('Payment added to your credit');
    expect(await allReceipts(t.db)).toEqual([expect.objectContaining({ total: SPLIT_PRICE })]);
    expect(
      (await auditEventsOf(t.db, t.platformOrganizationId, 'bank_transfer.confirmed')).at(-1)?.details,
    ).toMatchObject({ excess: 80_000, excessTo: 'credit_balance' });
    // Applied once: nothing more is recorded or credited.
    const again = await confirmTransfer(t, reference, { amountReceived: 5_000, bankReference: 'FT-OVER-3' });
    expect(again.statusCode).toBe(409);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(80_000);
  });

  it("puts what a top-up's transfers bring in beyond its invoice on the same wallet, as a movement of its own", async () => {
    const { reference } = await started({ amount: LARGE_TOP_UP });
    const before = await liveBalance(t.db, t.organizationId);
    await confirmTransfer(t, reference, { amountReceived: 1_500_000, bankReference: 'FT-WALLET-1' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    const over = await confirmTransfer(t, reference, { amountReceived: 600_000, bankReference: 'FT-WALLET-2' });
    expect(over.json().message).toContain('; KES 100,000 beyond the invoice went to the wallet');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 2_100_000);
    expect(await topUpsOf(t.db, reference)).toBe(1);
    const excess = await t.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, `transfer_excess:${reference}`));
    expect(excess).toEqual([expect.objectContaining({ kind: 'top_up', amount: 100_000 })]);
    expect(await titlesNotified(t.db, PAYER_ID)).toContain('Transfer excess added to your wallet');
  });

  it('records a bank reference once, whatever its outcome: again on the same transfer or on another is 409', async () => {
    const first = await started({ amount: 5_000 });
    const second = await started({ amount: 5_000 });
    expect(
      (await confirmTransfer(t, first.reference, { amountReceived: 1_000, bankReference: 'FT-ONCE' })).json().data
        .outcome,
    ).toBe('partial');
    for (const [reference, where] of [
      [first.reference, 'for this transfer'],
      [second.reference, `for ${first.reference}`],
    ] as const) {
      const reused = await confirmTransfer(t, reference, { amountReceived: 4_000, bankReference: ' ft-once ' });
      expect(reused.statusCode).toBe(409);
      expect(reused.json()).toMatchObject({
        code: 'conflict',
        error: `The bank reference FT-ONCE was already recorded ${where}: one line of a bank statement is recorded once`,
      });
    }
    expect(await allConfirmations(t.db)).toHaveLength(1);
    expect((await paymentByReference(t.db, first.reference)).status).toBe('pending');
    expect((await paymentByReference(t.db, second.reference)).status).toBe('pending');
  });

  it.each([['FT1\nFT2'], ['FT#1'], ['-FT1'], ['   '], ['FT\u00e91']])(
    'refuses the bank reference %j saying what a reference may contain, and records nothing',
    async (bankReference) => {
      const { reference } = await started({ amount: 900 });
      const refused = await confirmTransfer(t, reference, { amountReceived: 900, bankReference });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'validation_error',
        error: BANK_REFERENCE_RULE,
        details: [{ path: '/bankReference', message: BANK_REFERENCE_RULE }],
      });
      expect(refused.json().error).not.toMatch(/pattern|\^|\[/);
      expect(await allConfirmations(t.db)).toEqual([]);
    },
  );
});

describe('expiry after 30 days', () => {
  it('expires a transfer unconfirmed for 30 days, tells the members, and refuses to confirm it then', async () => {
    const { reference, invoice } = await started({ amount: 4_000 });
    const expiresAt = new Date(invoice.expiresAt).getTime();
    // The test clock runs on from where it is set: a second before is still before when the job looks.
    t.clock.set(new Date(expiresAt - 1_000));
    expect(await t.expireTransfers()).toEqual({ expired: 0 });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');

    t.clock.set(new Date(expiresAt));
    // Past its 30 days, it cannot be confirmed even before the job has run.
    const late = await confirmTransfer(t, reference, { amountReceived: 4_000, bankReference: 'FT-LATE' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatch(/^This transfer expired on .*, unconfirmed after 30 days/);
    expect(await allConfirmations(t.db)).toEqual([]);

    expect(await t.expireTransfers()).toEqual({ expired: 1 });
    expect(await t.expireTransfers()).toEqual({ expired: 0 });
    const payment = await paymentByReference(t.db, reference);
    expect(payment.status).toBe('expired');
    expect(payment.completedAt?.getTime()).toBeGreaterThanOrEqual(expiresAt);
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->expired']);
    expect((await auditEventsOf(t.db, t.organizationId, 'payment.expired')).at(-1)?.details).toMatchObject({
      source: 'bank_transfer_expiry',
    });
    for (const userId of [PAYER_ID, COLLEAGUE_ID]) {
      const told = await t.db.select().from(notifications).where(eq(notifications.userId, userId));
      expect(told.filter((note) => note.title === 'Invoice expired')).toEqual([
        expect.objectContaining({ type: 'warning', actionUrl: `/v1/billing/payments/${reference}/invoice` }),
      ]);
    }

    const again = await confirmTransfer(t, reference, { amountReceived: 4_000, bankReference: 'FT-LATE' });
    expect(again.statusCode).toBe(409);
    expect(await allReceipts(t.db)).toEqual([]);
    const page = textOf((await invoiceOf(reference)).body);
    expect(page).toContain(`Invoice ${invoice.number}`);
    expect(page).toMatch(/Status Expired on .*: no longer payable/);
    expect(page).toContain('This invoice expired');
    expect(await pdfText((await invoiceOf(reference, { accept: 'application/pdf' })).rawPayload)).toContain(
      'no longer payable',
    );
  });

  it('raises an alarm when a transfer expires after money of another amount was recorded for it', async () => {
    const { reference } = await started({ amount: 4_000 });
    await confirmTransfer(t, reference, { amountReceived: 3_000, bankReference: 'FT-SHORT' });
    const alarms = await alarmsRaised(t.app, 'unapplied_transfer_expired');
    t.clock.advance(30 * DAY_MS);
    expect(await t.expireTransfers()).toEqual({ expired: 1 });
    expect(await alarmsRaised(t.app, 'unapplied_transfer_expired')).toBe(alarms + 1);
    expect(await topUpsOf(t.db, reference)).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents paying by bank transfer, the invoice and the finance routes with their schemas and roles', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const pay = document.paths['/v1/billing/pay'].post;
    expect(JSON.stringify(pay.requestBody)).toContain('"bank_transfer"');
    expect(Object.keys(document.components.schemas.PaymentStarted.properties)).toEqual(
      expect.arrayContaining(['instructions', 'invoice']),
    );
    const invoice = document.paths['/v1/billing/payments/{reference}/invoice'].get;
    expect(Object.keys(invoice.responses['200'].content)).toEqual(['text/html', 'application/pdf']);
    const list = document.paths['/v1/finance/payments'].get;
    const confirm = document.paths['/v1/finance/payments/{reference}/confirm'].post;
    for (const operation of [list, confirm]) {
      expect(operation.tags).toEqual(['finance']);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect(operation.description).toContain(
        "Roles: finance in the platform's own organization (PLATFORM_ORGANIZATION_ID) (transfers:confirm).",
      );
    }
    expect(JSON.stringify(confirm.requestBody)).toContain('amountReceived');
    expect(Object.keys(confirm.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409']));
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['BankTransfer', 'BankTransferList', 'BankTransferConfirmed']),
    );
  });
});
