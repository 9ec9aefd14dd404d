import type { DatabaseHandle } from '@platform/db';
import { paymentEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveBalance, paymentByReference, testReceipts, transitionsOf } from '../../../../../test/billing-fixtures.js';
import { insertOrganization, insertUser } from '../../../../../test/helpers.js';
import { applyEarlyMobileMoneyResults } from '../../payments/mobile-money-results.js';
import { newPaymentReference } from '../../payments/reference.js';
import { insertPendingPayment, recordProviderAcceptance } from '../../payments/repository.js';
import type { SettlementContext } from '../../payments/settle-payment.js';
import { subscriptionPaymentHooks } from '../../subscriptions/payment-hooks.js';
import { stkResults } from './results.js';
import { processStkCallback } from './service.js';

let database: DatabaseHandle;
let ctx: SettlementContext;
let organizationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    now: () => new Date(),
    hooks: subscriptionPaymentHooks,
    receipts: testReceipts,
    log: pino({ level: 'silent' }),
  };
  await insertUser(database.db, { id: 'user_early' });
  organizationId = await insertOrganization(database.db, { members: [{ userId: 'user_early' }] });
});
afterAll(async () => {
  await database?.close();
});

const callback = (checkoutRequestId: string, resultCode: number) => ({
  Body: {
    stkCallback: {
      MerchantRequestID: 'm-1',
      CheckoutRequestID: checkoutRequestId,
      ResultCode: resultCode,
      ResultDesc: resultCode === 0 ? 'The service request is processed successfully.' : 'Request cancelled by user',
      ...(resultCode === 0 ? { CallbackMetadata: { Item: [{ Name: 'Amount', Value: 700 }] } } : {}),
    },
  },
});

describe('a callback that arrives before the CheckoutRequestID is stored', () => {
  it('is kept, then applied once the payment learns its CheckoutRequestID', async () => {
    const before = await liveBalance(database.db, organizationId);
    const payment = await database.db.transaction((tx) =>
      insertPendingPayment(tx, {
        reference: newPaymentReference(),
        organizationId,
        userId: 'user_early',
        method: 'mobile_money',
        channel: 'mobile_money',
        purpose: 'wallet_topup',
        provider: 'daraja',
        amount: 700,
        phone: '254712345678',
        nextCheckAt: new Date(),
        createdAt: new Date(),
      }),
    );

    const early = await processStkCallback(ctx, 'daraja', callback('ws_CO_early_1', 0), 'daraja_callback');
    expect(early).toEqual({ kind: 'unmatched' });
    expect((await paymentByReference(database.db, payment.reference)).status).toBe('pending');

    await recordProviderAcceptance(
      database.db,
      payment,
      { providerReference: 'ws_CO_early_1', payload: null },
      new Date(),
    );
    await applyEarlyMobileMoneyResults(ctx, stkResults, payment, 'ws_CO_early_1');
    await applyEarlyMobileMoneyResults(ctx, stkResults, payment, 'ws_CO_early_1');

    expect((await paymentByReference(database.db, payment.reference)).status).toBe('succeeded');
    expect(await transitionsOf(database.db, payment.id)).toEqual(['pending->succeeded']);
    expect(await liveBalance(database.db, organizationId)).toBe(before + 700);
    const events = await database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.providerEventKey, 'daraja:callback:ws_CO_early_1:0'));
    expect(events).toEqual([expect.objectContaining({ paymentId: payment.id })]);

    // Delivered again later, it is a duplicate.
    expect(await processStkCallback(ctx, 'daraja', callback('ws_CO_early_1', 0), 'daraja_callback')).toMatchObject({
      kind: 'duplicate',
    });
  });
});
