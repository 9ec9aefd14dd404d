import { type DatabaseHandle, type PaymentStatus, paymentStatuses } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  liveBalance,
  paymentByReference,
  testReceipts,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { insertOrganization, insertUser } from '../../../../test/helpers.js';
import { subscriptionPaymentHooks } from '../subscriptions/payment-hooks.js';
import type { ProviderOutcome } from './provider-port.js';
import { newPaymentReference } from './reference.js';
import { insertPendingPayment } from './repository.js';
import { type SettlementContext, settlePayment } from './settle-payment.js';

let database: DatabaseHandle;
let ctx: SettlementContext;
let organizationId: string;
let clock = Date.parse('2024-03-01T08:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    now: () => new Date(clock),
    hooks: subscriptionPaymentHooks,
    receipts: testReceipts,
    log: pino({ level: 'silent' }),
  };
  await insertUser(database.db, { id: 'user_settle' });
  organizationId = await insertOrganization(database.db, { members: [{ userId: 'user_settle' }] });
});
afterAll(async () => {
  await database?.close();
});

async function pendingPayment(amount = 100) {
  const payment = await database.db.transaction((tx) =>
    insertPendingPayment(tx, {
      reference: newPaymentReference(),
      organizationId,
      userId: 'user_settle',
      method: 'mobile_money',
      channel: 'mobile_money',
      purpose: 'wallet_topup',
      provider: 'sandbox',
      amount,
      phone: '254712345678',
      providerReference: `ws_CO_${Math.random().toString(36).slice(2)}`,
      nextCheckAt: new Date(clock),
      createdAt: new Date(clock),
    }),
  );
  return payment;
}

let eventNumber = 0;
function outcome(status: PaymentStatus, extra: Partial<ProviderOutcome> = {}): ProviderOutcome {
  eventNumber += 1;
  return { status, eventKey: `test:${eventNumber}`, source: 'test', payload: { status }, ...extra };
}

const finalStatuses = paymentStatuses.filter((status) => status !== 'pending');

describe('the payment state machine', () => {
  it.each(finalStatuses)('moves pending to %s', async (status) => {
    const payment = await pendingPayment();
    const result = await settlePayment(ctx, { reference: payment.reference }, outcome(status));
    expect(result).toMatchObject({ kind: 'changed', from: 'pending' });
    expect(await transitionsOf(database.db, payment.id)).toEqual([`pending->${status}`]);
  });

  it.each(finalStatuses.flatMap((from) => finalStatuses.map((to) => [from, to] as const)))(
    'from %s, an outcome %s changes nothing unless a success follows expiry',
    async (from, to) => {
      const payment = await pendingPayment();
      await settlePayment(ctx, { reference: payment.reference }, outcome(from));
      clock += 1000;
      const result = await settlePayment(ctx, { reference: payment.reference }, outcome(to));
      const moves = from === 'expired' && to === 'succeeded';
      expect(result.kind).toBe(moves ? 'changed' : 'unchanged');
      expect((await paymentByReference(database.db, payment.reference)).status).toBe(moves ? 'succeeded' : from);
    },
  );

  it('records a pending outcome without moving the payment', async () => {
    const payment = await pendingPayment();
    expect(await settlePayment(ctx, { reference: payment.reference }, outcome('pending'))).toMatchObject({
      kind: 'unchanged',
    });
    expect((await paymentByReference(database.db, payment.reference)).status).toBe('pending');
  });

  it('recognises a provider event delivered twice and runs the success effects once', async () => {
    const before = await liveBalance(database.db, organizationId);
    const payment = await pendingPayment(300);
    const success = outcome('succeeded');
    expect((await settlePayment(ctx, { reference: payment.reference }, success)).kind).toBe('changed');
    expect((await settlePayment(ctx, { reference: payment.reference }, success)).kind).toBe('duplicate');
    expect(await liveBalance(database.db, organizationId)).toBe(before + 300);
    expect(await topUpsOf(database.db, payment.reference)).toBe(1);
  });

  it('finds a payment by its provider reference, and reports an unknown one as unmatched', async () => {
    const payment = await pendingPayment();
    const match = { provider: 'sandbox' as const, providerReference: payment.providerReference ?? '' };
    expect((await settlePayment(ctx, match, outcome('cancelled'))).kind).toBe('changed');
    expect(
      (
        await settlePayment(
          ctx,
          { provider: 'daraja', providerReference: payment.providerReference ?? '' },
          outcome('succeeded'),
        )
      ).kind,
    ).toBe('unmatched');
    expect((await paymentByReference(database.db, payment.reference)).status).toBe('cancelled');
  });

  it('turns a success for another amount into a failure', async () => {
    const payment = await pendingPayment(500);
    await settlePayment(
      ctx,
      { reference: payment.reference },
      outcome('succeeded', { paid: { amount: 50, currency: 'KES' } }),
    );
    expect(await paymentByReference(database.db, payment.reference)).toMatchObject({
      status: 'failed',
      failureReason: 'The provider reported 50 KES paid for a payment of 500 KES',
    });
  });
});

describe("a success's M-Pesa receipt number (docs/decisions.md#m-pesa-receipt-number)", () => {
  const numberOf = async (reference: string) => (await paymentByReference(database.db, reference)).mpesaReceiptNumber;

  it('is kept with the success, and no later success (another event) replaces it', async () => {
    const payment = await pendingPayment();
    const first = await settlePayment(
      ctx,
      { reference: payment.reference },
      outcome('succeeded', { mpesaReceiptNumber: 'QKT2XYZ8AB' }),
    );
    expect(first).toMatchObject({ kind: 'changed', payment: { mpesaReceiptNumber: 'QKT2XYZ8AB' } });
    const later = await settlePayment(
      ctx,
      { reference: payment.reference },
      outcome('succeeded', { mpesaReceiptNumber: 'ZZZ9ZZZ9ZZ' }),
    );
    expect(later).toMatchObject({ kind: 'unchanged', payment: { mpesaReceiptNumber: 'QKT2XYZ8AB' } });
    expect(await numberOf(payment.reference)).toBe('QKT2XYZ8AB');
  });

  it('is kept from a later success when the first (a status query) had none', async () => {
    const payment = await pendingPayment();
    await settlePayment(ctx, { reference: payment.reference }, outcome('succeeded'));
    expect(await numberOf(payment.reference)).toBeNull();
    await settlePayment(
      ctx,
      { reference: payment.reference },
      outcome('succeeded', { mpesaReceiptNumber: 'QKT2XYZ8AB' }),
    );
    expect(await numberOf(payment.reference)).toBe('QKT2XYZ8AB');
  });

  it('is not kept for a success of another amount, nor on a payment that did not succeed', async () => {
    const mismatched = await pendingPayment(500);
    await settlePayment(
      ctx,
      { reference: mismatched.reference },
      outcome('succeeded', { paid: { amount: 50, currency: 'KES' }, mpesaReceiptNumber: 'QKT2XYZ8AB' }),
    );
    expect(await paymentByReference(database.db, mismatched.reference)).toMatchObject({
      status: 'failed',
      mpesaReceiptNumber: null,
    });
    const cancelled = await pendingPayment();
    await settlePayment(ctx, { reference: cancelled.reference }, outcome('cancelled'));
    await settlePayment(
      ctx,
      { reference: cancelled.reference },
      outcome('succeeded', { mpesaReceiptNumber: 'QKT2XYZ8AB' }),
    );
    expect(await paymentByReference(database.db, cancelled.reference)).toMatchObject({
      status: 'cancelled',
      mpesaReceiptNumber: null,
    });
  });
});

describe('alarms for money taken but not credited', () => {
  const raised: string[] = [];
  const alarmed = (): SettlementContext => ({ ...ctx, alarms: { raise: (kind) => void raised.push(kind) } });

  it.each(['failed', 'cancelled'] as const)(
    'raises one for a success reported after the payment %s, once per event',
    async (status) => {
      raised.length = 0;
      const payment = await pendingPayment();
      await settlePayment(alarmed(), { reference: payment.reference }, outcome(status));
      const late = outcome('succeeded');
      expect(await settlePayment(alarmed(), { reference: payment.reference }, late)).toMatchObject({
        kind: 'unchanged',
      });
      expect(await settlePayment(alarmed(), { reference: payment.reference }, late)).toMatchObject({
        kind: 'duplicate',
      });
      expect(raised).toEqual(['success_after_final']);
    },
  );

  it('raises one for a success of another amount, and none for ordinary outcomes', async () => {
    raised.length = 0;
    const paid = await pendingPayment(500);
    await settlePayment(alarmed(), { reference: paid.reference }, outcome('succeeded'));
    await settlePayment(alarmed(), { reference: paid.reference }, outcome('succeeded'));
    const expired = await pendingPayment(500);
    await settlePayment(alarmed(), { reference: expired.reference }, outcome('expired'));
    await settlePayment(alarmed(), { reference: expired.reference }, outcome('succeeded'));
    expect(raised).toEqual([]);
    const wrong = await pendingPayment(500);
    await settlePayment(
      alarmed(),
      { reference: wrong.reference },
      outcome('succeeded', { paid: { amount: 50, currency: 'KES' } }),
    );
    expect(raised).toEqual(['amount_mismatch']);
  });
});
