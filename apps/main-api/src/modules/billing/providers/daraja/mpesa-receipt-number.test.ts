import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useBillingAppWithProviders } from '../../../../../test/billing-app-with-providers.js';
import {
  type BillingTestApp,
  capturingLogger,
  deletePayments,
  paymentByReference,
  promptMpesaPayment,
} from '../../../../../test/billing-fixtures.js';
import type { FakeDaraja } from '../../../../../test/fake-daraja.js';
import { allReceipts, pdfText, textOf } from '../../../../../test/receipt-fixtures.js';

// The M-Pesa receipt number of a paid STK push, from Daraja's success callback (a fake Daraja posting to the
// service's CallBackURL), kept on the payment once and shown on its receipt, page and PDF
// (docs/decisions.md#m-pesa-receipt-number).

const MINUTE = 60_000;
const logs = capturingLogger('warn');
const billing = useBillingAppWithProviders({ logger: logs.logger });
let t: BillingTestApp;
let daraja: FakeDaraja;
beforeAll(() => {
  ({ t, daraja } = billing);
});
beforeEach(async () => {
  daraja.behaviour('normal');
  t.timeouts.expireOnHang(daraja.server);
  logs.lines.length = 0;
  await deletePayments(t.db);
});

const prompt = (amount: number) => promptMpesaPayment(t, daraja, amount);

async function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(await t.headers()), ...headers } });
}

/** The receipt page's text without its markup, spaces collapsed. */
async function receiptText(reference: string): Promise<string> {
  const response = await get(`/v1/billing/payments/${reference}/receipt`);
  expect(response.statusCode).toBe(200);
  return textOf(response.body);
}

async function receiptOf(reference: string) {
  const receipt = (await allReceipts(t.db)).find((issued) => issued.paymentReference === reference);
  if (receipt === undefined) throw new Error(`No receipt for ${reference}`);
  return receipt;
}

const malformedLines = () =>
  logs.lines.filter((line) => String(line['msg']).includes('receipt number that is not one'));

describe('the M-Pesa receipt number of a paid STK push', () => {
  it("is kept from the success callback and shown on the receipt, in place of the prompt's CheckoutRequestID", async () => {
    const { reference, checkoutRequestId } = await prompt(1_160);
    const { mpesaReceiptNumber } = daraja.answer(checkoutRequestId, 0);
    expect(mpesaReceiptNumber).toMatch(/^[A-Z0-9]{10}$/);
    expect((await daraja.deliverCallback(checkoutRequestId)).status).toBe(200);

    expect(await paymentByReference(t.db, reference)).toMatchObject({ status: 'succeeded', mpesaReceiptNumber });
    expect(await receiptOf(reference)).toMatchObject({ mpesaReceiptNumber, providerReference: checkoutRequestId });
    const text = await receiptText(reference);
    expect(text).toContain('Paid by M-Pesa (Safaricom M-Pesa)');
    expect(text).toContain(`M-Pesa receipt ${mpesaReceiptNumber}`);
    expect(text).not.toContain(checkoutRequestId);
    expect(text).not.toContain('Provider reference');

    const pdf = await get(`/v1/billing/payments/${reference}/receipt`, { accept: 'application/pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toMatch(new RegExp(`M-Pesa receipt\\s+${mpesaReceiptNumber}`));

    const view = await get(`/v1/billing/payments/${reference}`);
    expect(view.json()).toMatchObject({ data: { reference, mpesaReceiptNumber } });
    const list = await get('/v1/billing/payments');
    expect(list.json()).toMatchObject({ data: { payments: [{ reference, mpesaReceiptNumber }] } });
    expect(malformedLines()).toEqual([]);
  });

  it.each([
    ['lowercase', 'qkt2xyz8ab', { type: 'string', length: 10 }],
    ['eleven characters', 'QKT2XYZ8AB1', { type: 'string', length: 11 }],
    ['a phone number', 254708374149, { type: 'number', length: 12 }],
  ])(
    'is not kept when it is %s: the payment succeeds, the log says only its type and length',
    async (_, value, told) => {
      const { reference, checkoutRequestId } = await prompt(700);
      daraja.answer(checkoutRequestId, 0);
      await daraja.deliverCallback(checkoutRequestId, undefined, { mpesaReceiptNumber: value });

      expect(await paymentByReference(t.db, reference)).toMatchObject({
        status: 'succeeded',
        mpesaReceiptNumber: null,
      });
      expect(await receiptOf(reference)).toMatchObject({ mpesaReceiptNumber: null });
      // As receipts read before the number was kept: the provider's reference.
      const text = await receiptText(reference);
      expect(text).toContain(`Provider reference ${checkoutRequestId}`);
      expect(text).not.toContain('M-Pesa receipt');
      expect((await get(`/v1/billing/payments/${reference}`)).json()).toMatchObject({
        data: { mpesaReceiptNumber: null },
      });

      const [line, ...others] = malformedLines();
      expect(others).toEqual([]);
      expect(line).toMatchObject({ level: 40, checkoutRequestId, receiptNumber: told });
      const written = JSON.stringify(line);
      expect(written).not.toContain(String(value));
      expect(written).not.toContain('254708374149');
      expect(written).not.toContain('708374149');
    },
  );

  it('is kept once: a duplicate callback carrying another number changes nothing', async () => {
    const { reference, checkoutRequestId } = await prompt(900);
    const { mpesaReceiptNumber } = daraja.answer(checkoutRequestId, 0);
    await daraja.deliverCallback(checkoutRequestId);
    await daraja.deliverCallback(checkoutRequestId, undefined, { mpesaReceiptNumber: 'ZZZ9ZZZ9ZZ' });
    await daraja.deliverCallback(checkoutRequestId);

    expect(await paymentByReference(t.db, reference)).toMatchObject({ mpesaReceiptNumber });
    expect(await receiptOf(reference)).toMatchObject({ mpesaReceiptNumber });
    expect(await receiptText(reference)).toContain(`M-Pesa receipt ${mpesaReceiptNumber}`);
  });

  it('comes from a late callback to a payment the status query settled (the query reports none); its receipt stays as issued', async () => {
    const { reference, checkoutRequestId } = await prompt(650);
    const { mpesaReceiptNumber } = daraja.answer(checkoutRequestId, 0);
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect(await paymentByReference(t.db, reference)).toMatchObject({ status: 'succeeded', mpesaReceiptNumber: null });

    await daraja.deliverCallback(checkoutRequestId);
    expect(await paymentByReference(t.db, reference)).toMatchObject({ status: 'succeeded', mpesaReceiptNumber });
    expect((await get(`/v1/billing/payments/${reference}`)).json()).toMatchObject({ data: { mpesaReceiptNumber } });
    // A receipt is never changed once issued (docs/decisions.md#receipt-content).
    expect(await receiptOf(reference)).toMatchObject({ mpesaReceiptNumber: null });
    expect(await receiptText(reference)).toContain(`Provider reference ${checkoutRequestId}`);
    expect((await allReceipts(t.db)).filter((issued) => issued.paymentReference === reference)).toHaveLength(1);
  });
});
