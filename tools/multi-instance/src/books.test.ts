import type { Database, DatabaseHandle } from '@platform/db';
import { mailSubscriptions, organizations, payments, receipts, wallets } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBooks } from './books.js';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';

// The books check must be able to fail: books that were right until a cached figure moved on its own are wrong.

describe('readBooks', () => {
  let database: DatabaseHandle;
  let db: Database;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const [organization] = await db.insert(organizations).values({ name: 'Books' }).returning();
    organizationId = organization!.id;
    await db.transaction((tx) =>
      topUpWallet(tx, { organizationId, environment: 'live' }, { amount: 500, reference: 'books:seed' }),
    );
    await insertMonthlySubscription(db, organizationId, await insertSandboxCard(db, organizationId), 10);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('finds nothing wrong with books kept by the ledger', async () => {
    expect((await readBooks(db)).problems).toEqual([]);
  });

  it('names a wallet whose balance is not its ledger, and a credit balance that is not its movements', async () => {
    await db.update(wallets).set({ availableBalance: 501 }).where(eq(wallets.organizationId, organizationId));
    // The database itself refuses a credit cache that is not its movements (its triggers); the books must still
    // see one, as in a copy restored without triggers, so they are switched off for this write (superuser only).
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx
        .update(mailSubscriptions)
        .set({ creditBalance: 7 })
        .where(eq(mailSubscriptions.organizationId, organizationId));
    });
    const { problems } = await readBooks(db);
    expect(problems).toEqual([
      expect.stringMatching(/^wallet .* stores 501\/0 available\/held, its ledger says 500\/0$/),
      expect.stringMatching(/^subscription .* caches a credit of 7, its movements sum to 0$/),
    ]);
  });

  it('names a succeeded payment without a receipt, and a gap in the receipt numbers', async () => {
    const paidAt = new Date('2026-03-02T09:00:00Z');
    const paid = (reference: string) => ({
      reference,
      organizationId,
      method: 'card' as const,
      channel: 'card' as const,
      purpose: 'wallet_topup' as const,
      provider: 'sandbox' as const,
      status: 'succeeded' as const,
      amount: 116,
      nextCheckAt: paidAt,
      completedAt: paidAt,
    });
    const [withReceipt, without] = await db
      .insert(payments)
      .values([paid('PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01'), paid('PAY-0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e02')])
      .returning();
    await db.insert(receipts).values({
      sequence: 2,
      number: 'RCT-000002',
      paymentId: withReceipt!.id,
      organizationId,
      issuedAt: paidAt,
      sellerName: 'Seller',
      sellerAddress: 'Nairobi',
      sellerKraPin: 'P000000000A',
      buyerName: 'Books',
      purpose: 'wallet_topup',
      total: 116,
      net: 100,
      vat: 16,
      vatRatePercent: 16,
      paymentReference: withReceipt!.reference,
      channel: 'card',
      provider: 'sandbox',
      paidAt,
    });
    const { problems } = await readBooks(db);
    expect(problems).toEqual(
      expect.arrayContaining([
        `payment ${without!.reference} (succeeded) has 0 receipts`,
        'receipt numbers are not 1 to 1: 2',
      ]),
    );
  });
});
