import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.js';
import { createTestDatabase } from '../testing.js';
import {
  bankTransferConfirmations,
  invoices,
  type NewBankTransferConfirmation,
  type NewInvoice,
  type NewPayment,
  organizations,
  payments,
} from './index.js';

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

// Bank transfers (docs/decisions.md#bank-transfers): the database keeps a transfer findable by its reference, its
// invoice's numbers and amounts consistent, applies a confirmation at most once, and refuses to change what was
// issued or recorded, whoever connects.
describe('bank transfers', () => {
  let handle: DatabaseHandle;
  let organizationId: string;
  let transfer: NewPayment;
  let paymentId: string;
  let invoice: NewInvoice;
  let confirmation: NewBankTransferConfirmation;
  const issued = new Date('2026-03-02T09:00:00Z');

  beforeAll(async () => {
    handle = await createTestDatabase();
    const [organization] = await handle.db.insert(organizations).values({ name: 'Acme' }).returning();
    if (organization === undefined) throw new Error('no organization');
    organizationId = organization.id;
    transfer = {
      reference: 'PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01',
      organizationId,
      method: 'bank_transfer',
      channel: 'bank_transfer',
      purpose: 'wallet_topup',
      provider: 'bank_transfer',
      amount: 2_000_000,
      accountReference: 'BT4K7Q9XMP',
      nextCheckAt: new Date(issued.getTime() + 30 * 86_400_000),
    };
    const [payment] = await handle.db.insert(payments).values(transfer).returning();
    if (payment === undefined) throw new Error('no payment');
    paymentId = payment.id;
    invoice = {
      sequence: 1,
      number: 'INV-000001',
      paymentId,
      organizationId,
      issuedAt: issued,
      dueAt: new Date(issued.getTime() + 14 * 86_400_000),
      expiresAt: new Date(issued.getTime() + 30 * 86_400_000),
      sellerName: 'Seller Ltd',
      sellerAddress: 'Nairobi',
      sellerKraPin: 'P051234567A',
      buyerName: 'Acme',
      purpose: 'wallet_topup',
      total: 2_000_000,
      net: 1_724_138,
      vat: 275_862,
      vatRatePercent: 16,
      paymentReference: payment.reference,
      transferReference: 'BT4K7Q9XMP',
      bankName: 'Example Bank',
      bankAccountName: 'Seller Ltd',
      bankAccountNumber: '0123456789',
      bankBranch: 'Moi Avenue',
      sandbox: false,
    };
    confirmation = {
      paymentId,
      confirmedByUserId: 'user_finance',
      amountReceived: 2_000_000,
      amountDue: 2_000_000,
      bankReference: 'FT26061ABCDE',
      outcome: 'applied',
    };
  });
  afterAll(async () => {
    await handle.close();
  });

  it.each([
    ['a transfer without the reference its payer writes', { accountReference: null }, 'payments_bank_transfer_check'],
    ['a transfer reported by a card provider', { provider: 'paystack' as const }, 'payments_bank_transfer_check'],
    [
      'a card payment reported as a bank transfer',
      { channel: 'card' as const, method: 'card' as const },
      'payments_bank_transfer_check',
    ],
  ])('refuses %s', async (_label, change, constraint) => {
    const error = await databaseError(
      handle.db.insert(payments).values({
        ...transfer,
        reference: 'PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e02',
        accountReference: 'BT00000000',
        ...change,
      }),
    );
    expect(error.code).toBe('23514');
    expect(error.message).toContain(constraint);
  });

  it('gives each transfer reference to one transfer', async () => {
    const error = await databaseError(
      handle.db.insert(payments).values({ ...transfer, reference: 'PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e03' }),
    );
    expect(error.code).toBe('23505');
    expect(error.message).toContain('payments_bank_transfer_reference_unique');
  });

  it.each([
    ['a number that is not its sequence', { number: 'INV-000002' }, 'invoices_number_check'],
    ['net and VAT that do not add up to the total', { net: 1_724_139 }, 'invoices_vat_included_check'],
    ['a due date before the issue', { dueAt: issued }, 'invoices_dates_check'],
    ['an expiry before the due date', { expiresAt: new Date(issued.getTime() + 86_400_000) }, 'invoices_dates_check'],
    ['an ambiguous transfer reference', { transferReference: 'BT4K7Q9XMO' }, 'invoices_transfer_reference_check'],
  ])('refuses an invoice with %s', async (_label, change, constraint) => {
    const error = await databaseError(handle.db.insert(invoices).values({ ...invoice, ...change }));
    expect(error.code).toBe('23514');
    expect(error.message).toContain(constraint);
  });

  it('keeps an issued invoice as it is: UPDATE and DELETE are refused, and a payment has one', async () => {
    await handle.db.insert(invoices).values(invoice);
    const update = await databaseError(
      handle.db.update(invoices).set({ bankAccountNumber: '9999999999' }).where(eq(invoices.number, 'INV-000001')),
    );
    expect(update.code).toBe('23001');
    expect(update.message).toBe('Billing records are never changed once written: UPDATE on invoices is refused');
    expect((await databaseError(handle.db.execute(sql`delete from invoices`))).code).toBe('23001');
    const second = await databaseError(
      handle.db.insert(invoices).values({ ...invoice, sequence: 2, number: 'INV-000002' }),
    );
    expect(second.code).toBe('23505');
    expect(second.message).toContain('invoices_payment_id_unique');
    const [kept] = await handle.db.select().from(invoices);
    expect(kept).toMatchObject({ number: 'INV-000001', bankAccountNumber: '0123456789', total: 2_000_000 });
  });

  it.each([
    ['applied below the amount due', { amountReceived: 1_999_999 }],
    ['applied after what was received before had reached it', { receivedBefore: 2_000_000 }],
    ['partial although it reaches the amount due', { receivedBefore: 1_000_000, outcome: 'partial' as const }],
    ['of the exact amount as a mismatch', { outcome: 'amount_mismatch' as const }],
    [
      'a mismatch counting earlier money',
      { amountReceived: 5, receivedBefore: 5, outcome: 'amount_mismatch' as const },
    ],
    ['a negative amount received before', { receivedBefore: -1 }],
  ])('refuses a confirmation %s: its outcome follows from the amounts', async (_label, change) => {
    const refused = await databaseError(
      handle.db.insert(bankTransferConfirmations).values({ ...confirmation, ...change }),
    );
    expect(refused.code).toBe('23514');
    expect(refused.message).toContain('bank_transfer_confirmations_amounts_check');
  });

  it('records a bank reference once whatever its outcome; mismatches recorded before stand as they were', async () => {
    await handle.db.execute(sql`truncate bank_transfer_confirmations`);
    // Amounts of another amount recorded before split transfers added up, the same statement line twice among them.
    const legacy = {
      ...confirmation,
      bankReference: 'FT-LEGACY',
      amountReceived: 1_000,
      outcome: 'amount_mismatch' as const,
    };
    await handle.db.insert(bankTransferConfirmations).values([legacy, legacy]);
    await handle.db
      .insert(bankTransferConfirmations)
      .values({ ...confirmation, bankReference: 'FT-SPLIT-1', amountReceived: 1_500_000, outcome: 'partial' });
    for (const outcome of ['partial', 'refund_due'] as const) {
      const again = await databaseError(
        handle.db
          .insert(bankTransferConfirmations)
          .values({ ...confirmation, bankReference: 'FT-SPLIT-1', amountReceived: 100, outcome }),
      );
      expect(again.code, outcome).toBe('23505');
      expect(again.message).toContain('bank_transfer_confirmations_bank_reference_unique');
    }
    await handle.db.insert(bankTransferConfirmations).values({
      ...confirmation,
      bankReference: 'FT-SPLIT-2',
      amountReceived: 600_000,
      receivedBefore: 1_500_000,
    });
    expect(await handle.db.$count(bankTransferConfirmations)).toBe(4);
  });

  it('applies a transfer once, records every partial amount, and changes none of them', async () => {
    await handle.db.execute(sql`truncate bank_transfer_confirmations`);
    await handle.db
      .insert(bankTransferConfirmations)
      .values({ ...confirmation, bankReference: 'FT-A', amountReceived: 1_000_000, outcome: 'partial' });
    await handle.db
      .insert(bankTransferConfirmations)
      .values({ ...confirmation, bankReference: 'FT-B', amountReceived: 3_000_000, receivedBefore: 1_000_000 });
    const twice = await databaseError(
      handle.db.insert(bankTransferConfirmations).values({ ...confirmation, bankReference: 'FT-C' }),
    );
    expect(twice.code).toBe('23505');
    expect(twice.message).toContain('bank_transfer_confirmations_applied_unique');
    const update = await databaseError(
      handle.db.update(bankTransferConfirmations).set({ amountReceived: 2_000_000, outcome: 'applied' }),
    );
    expect(update.code).toBe('23001');
    expect((await databaseError(handle.db.execute(sql`delete from bank_transfer_confirmations`))).code).toBe('23001');
    expect(await handle.db.$count(bankTransferConfirmations)).toBe(2);
  });
});
