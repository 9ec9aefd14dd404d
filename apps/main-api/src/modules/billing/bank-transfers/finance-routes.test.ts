import { randomUUID } from 'node:crypto';
import { notifications, paymentEvents } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allConfirmations,
  auditEventsOf,
  confirmTransfer,
  FINANCE_ID,
  PLATFORM_ADMIN_ID,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { COLLEAGUE_ID, LARGE_TOP_UP, useTransferSuite } from '../../../../test/bank-transfer-suite.js';
import {
  liveBalance,
  PAYER_ID,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { allReceipts, textOf } from '../../../../test/receipt-fixtures.js';

// The platform's finance staff and bank transfers (docs/decisions.md#bank-transfers): the list of transfers, a
// confirmation of the exact amount through the success path every payment takes, who may confirm; and the OpenAPI
// document of paying by transfer, the invoice and the finance routes.

const suite = useTransferSuite();
const { started, invoiceOf, listTransfers } = suite;
let t: TransferTestApp;
beforeAll(() => {
  t = suite.t;
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
