import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allConfirmations,
  auditEventsOf,
  confirmTransfer,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { COLLEAGUE_ID, useTransferSuite } from '../../../../test/bank-transfer-suite.js';
import {
  alarmsRaised,
  PAYER_ID,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { allReceipts, pdfText, textOf } from '../../../../test/receipt-fixtures.js';

// A bank transfer nobody confirmed expires after 30 days (docs/decisions.md#bank-transfers).

const DAY_MS = 86_400_000;
const suite = useTransferSuite();
const { started, invoiceOf } = suite;
let t: TransferTestApp;
beforeAll(() => {
  t = suite.t;
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
        expect.objectContaining({
          type: 'warning',
          actionUrl: `/dashboard/billing/payments/${reference}/invoice?org=${t.organizationId}`,
        }),
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
