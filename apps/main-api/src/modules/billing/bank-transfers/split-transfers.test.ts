import { ledgerTransactions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allConfirmations,
  auditEventsOf,
  confirmTransfer,
  FINANCE_ID,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { LARGE_TOP_UP, useTransferSuite } from '../../../../test/bank-transfer-suite.js';
import { liveBalance, PAYER_ID, paymentByReference, topUpsOf } from '../../../../test/billing-fixtures.js';
import { allReceipts } from '../../../../test/receipt-fixtures.js';
import { clearBilling, creditBalanceOf, titlesNotified } from '../../../../test/subscription-fixtures.js';
import { BANK_REFERENCE_RULE } from './bank-reference.js';

// A bank transfer paid in parts, and what parts bring in beyond the invoice (docs/decisions.md#split-bank-transfers).

const suite = useTransferSuite();
const { started } = suite;
let t: TransferTestApp;
beforeAll(() => {
  t = suite.t;
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
