import { beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { useBillingAppWithProviders } from '../../../../test/billing-app-with-providers.js';
import { type BillingTestApp, PAYER_ID, paymentByReference } from '../../../../test/billing-fixtures.js';
import type { FakeDaraja } from '../../../../test/fake-daraja.js';
import type { FakePaystack } from '../../../../test/fake-paystack.js';
import { insertOrganization } from '../../../../test/helpers.js';
import { allReceipts, lastReceiptNumber } from '../../../../test/receipt-fixtures.js';

// Receipt numbers are gapless and unique however many successes commit at once (docs/decisions.md#billing-documents).
// The successes come through the real paths, Paystack's webhook and Daraja's callback, sent at the same moment, for
// payments of as many organizations: one organization's top-ups also wait for each other at its wallet, which would
// hide a race at the receipt counter. Races need real concurrent connections: PGlite runs one query at a time, so
// these run on PostgreSQL only.
describe.skipIf(missing(postgresServer))(
  'receipt numbers of payments succeeding at once (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    const billing = useBillingAppWithProviders({ paystack: true, maxConnections: 12 });
    let t: BillingTestApp;
    let paystack: FakePaystack;
    let daraja: FakeDaraja;
    beforeAll(() => {
      ({ t, paystack, daraja } = billing);
    });

    /** Pays for a new organization of the payer's, or for the payer's first one. */
    async function pay(body: object, own = true): Promise<string> {
      const organizationId = own
        ? t.organizationId
        : await insertOrganization(t.db, { members: [{ userId: PAYER_ID }] });
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await t.headers({ 'x-organization-id': organizationId }),
        payload: body,
      });
      expect(response.statusCode).toBe(200);
      return (response.json() as { reference: string }).reference;
    }

    /** A card checkout paid at Paystack: its signed charge.success webhook, ready to send. */
    async function paidCheckout(
      amount: number,
      own = true,
    ): Promise<{ reference: string; deliver: () => Promise<unknown> }> {
      const reference = await pay({ method: 'card', amount }, own);
      paystack.completeCheckout(reference);
      const event = paystack.chargeSuccessEvent(reference);
      return { reference, deliver: () => paystack.deliverWebhook(event) };
    }

    /** An M-Pesa prompt the customer paid: Daraja's callback, ready to send. */
    async function paidPrompt(
      amount: number,
      own = true,
    ): Promise<{ reference: string; deliver: () => Promise<unknown> }> {
      const reference = await pay({ method: 'mobile_money', amount, phone: '0712345678' }, own);
      const { checkoutRequestId } = daraja.lastPrompt();
      daraja.answer(checkoutRequestId, 0);
      return { reference, deliver: () => daraja.deliverCallback(checkoutRequestId) };
    }

    it('numbers twelve payments succeeding at the same moment 1 to 12: consecutive, no gap, no duplicate', async () => {
      const paid = [];
      for (let index = 0; index < 6; index += 1) {
        paid.push(await paidCheckout(1_000 + index, false));
        paid.push(await paidPrompt(2_000 + index, false));
      }
      expect(await allReceipts(t.db)).toEqual([]);

      await Promise.all(paid.map((payment) => payment.deliver()));

      const issued = await allReceipts(t.db);
      expect(issued.map((receipt) => receipt.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(issued.map((receipt) => receipt.number)).toEqual(
        issued.map((receipt) => `RCT-${String(receipt.sequence).padStart(6, '0')}`),
      );
      expect(issued.map((receipt) => receipt.paymentReference).sort()).toEqual(
        paid.map((payment) => payment.reference).sort(),
      );
      for (const receipt of issued) {
        const payment = await paymentByReference(t.db, receipt.paymentReference);
        expect(payment.status).toBe('succeeded');
        expect(receipt).toMatchObject({ paymentId: payment.id, total: payment.amount, channel: payment.channel });
      }
      expect(await lastReceiptNumber(t.db)).toBe(12);
    });

    it('issues no second receipt for a retried success: the same webhook ten times at once, then once more', async () => {
      const before = await allReceipts(t.db);
      const { reference, deliver } = await paidCheckout(4_321);

      await Promise.all(Array.from({ length: 10 }, () => deliver()));
      await deliver();

      const issued = (await allReceipts(t.db)).slice(before.length);
      expect(issued).toEqual([expect.objectContaining({ paymentReference: reference, sequence: before.length + 1 })]);
      // No number was taken and lost by the duplicates either.
      expect(await lastReceiptNumber(t.db)).toBe(before.length + 1);
    });

    it('issues no second receipt for an M-Pesa result reported by its callback and by the status query at once', async () => {
      const before = await allReceipts(t.db);
      const { reference, deliver } = await paidPrompt(3_210);
      t.clock.advance(3 * 60_000);

      await Promise.all([deliver(), t.reconcile(), deliver(), t.reconcile()]);

      expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
      const issued = (await allReceipts(t.db)).slice(before.length);
      expect(issued.map((receipt) => [receipt.paymentReference, receipt.sequence])).toEqual([
        [reference, before.length + 1],
      ]);
      expect(await lastReceiptNumber(t.db)).toBe(before.length + 1);
    });
  },
);
