import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.js';
import { createTestDatabase } from '../testing.js';
import { type NewReceipt, organizations, payments, receipts } from './index.js';

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return cause as { code?: string; message: string };
  }
  throw new Error('Expected the statement to fail');
}

// Receipts are documents once issued (docs/decisions.md#billing-documents): the database keeps their numbers and
// amounts consistent and refuses to change them, whoever connects.
describe('receipts', () => {
  let handle: DatabaseHandle;
  let receipt: NewReceipt;

  beforeAll(async () => {
    handle = await createTestDatabase();
    const [organization] = await handle.db.insert(organizations).values({ name: 'Acme' }).returning();
    if (organization === undefined) throw new Error('no organization');
    const paid = new Date('2026-03-02T09:00:00Z');
    const [payment] = await handle.db
      .insert(payments)
      .values({
        reference: 'PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01',
        organizationId: organization.id,
        method: 'card',
        channel: 'card',
        purpose: 'wallet_topup',
        provider: 'sandbox',
        status: 'succeeded',
        amount: 1000,
        nextCheckAt: paid,
        completedAt: paid,
      })
      .returning();
    if (payment === undefined) throw new Error('no payment');
    receipt = {
      sequence: 1,
      number: 'RCT-000001',
      paymentId: payment.id,
      organizationId: organization.id,
      issuedAt: paid,
      sellerName: 'Seller Ltd',
      sellerAddress: 'Nairobi',
      sellerKraPin: 'P051234567A',
      buyerName: 'Acme',
      purpose: 'wallet_topup',
      total: 1000,
      net: 862,
      vat: 138,
      vatRatePercent: 16,
      paymentReference: payment.reference,
      channel: 'card',
      provider: 'sandbox',
      paidAt: paid,
    };
  });
  afterAll(async () => {
    await handle.close();
  });

  it.each([
    ['a number that is not its sequence', { number: 'RCT-000002' }, 'receipts_number_check'],
    ['a number of fewer than six digits', { number: 'RCT-1' }, 'receipts_number_check'],
    ['net and VAT that do not add up to the total', { net: 863 }, 'receipts_vat_included_check'],
    ['a malformed seller KRA PIN', { sellerKraPin: 'P05123456' }, 'receipts_seller_kra_pin_check'],
    ['a period without an end', { periodStart: new Date() }, 'receipts_period_check'],
    ['a malformed M-Pesa receipt number', { mpesaReceiptNumber: 'QKT2XYZ8A' }, 'receipts_mpesa_receipt_number_check'],
  ])('refuses %s', async (_label, change, constraint) => {
    const error = await databaseError(handle.db.insert(receipts).values({ ...receipt, ...change }));
    expect(error.code).toBe('23514');
    expect(error.message).toContain(constraint);
  });

  it.each(['qkt2xyz8ab', 'QKT2XYZ8AB1', 'QKT2-XYZ8A', ''])(
    "refuses %j as a payment's M-Pesa receipt number, and takes 10 uppercase letters and digits",
    async (malformed) => {
      const error = await databaseError(handle.db.update(payments).set({ mpesaReceiptNumber: malformed }));
      expect(error.code).toBe('23514');
      expect(error.message).toContain('payments_mpesa_receipt_number_check');
      const [kept] = await handle.db.update(payments).set({ mpesaReceiptNumber: 'QKT2XYZ8AB' }).returning();
      expect(kept?.mpesaReceiptNumber).toBe('QKT2XYZ8AB');
      await handle.db.update(payments).set({ mpesaReceiptNumber: null });
    },
  );

  it('keeps an issued receipt as it is: UPDATE and DELETE are refused', async () => {
    await handle.db.insert(receipts).values(receipt);
    const update = await databaseError(
      handle.db.update(receipts).set({ buyerName: 'Someone else' }).where(eq(receipts.number, 'RCT-000001')),
    );
    expect(update.code).toBe('23001');
    expect(update.message).toBe('Receipts are never changed once issued: UPDATE on receipts is refused');
    const removal = await databaseError(handle.db.execute(sql`delete from receipts`));
    expect(removal.code).toBe('23001');
    const [kept] = await handle.db.select().from(receipts);
    expect(kept).toMatchObject({ number: 'RCT-000001', buyerName: 'Acme', total: 1000 });
  });

  it('gives a payment one receipt', async () => {
    const error = await databaseError(
      handle.db.insert(receipts).values({ ...receipt, sequence: 2, number: 'RCT-000002' }),
    );
    expect(error.code).toBe('23505');
    expect(error.message).toContain('receipts_payment_id_unique');
  });
});
