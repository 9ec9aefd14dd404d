import { mailSubscriptionChanges, organizations } from '@platform/db/schema';
import { addBillingPeriod } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  type BillingTestApp,
  capturingLogger,
  insertPayments,
  notificationsOf,
  PAYER_ID,
  type PaymentRow,
  paymentByReference,
  startBillingApp,
} from '../../../../test/billing-fixtures.js';
import { allReceipts, lastReceiptNumber, textOf } from '../../../../test/receipt-fixtures.js';
import { clearBilling, insertSubscription } from '../../../../test/subscription-fixtures.js';
import { addCredit, paymentCreditReference } from '../subscriptions/credit-balance.js';

// Payments that succeeded before receipts existed (migration 0019) get theirs from the job that runs beside
// reconciliation (docs/decisions.md#receipts-for-earlier-payments). Such a payment is inserted as 0019 left it: succeeded,
// no receipt. Rounds of several instances race on real connections, so this runs on PostgreSQL only.
describe.skipIf(missing(postgresServer))('receipts for payments that succeeded before receipts existed', () => {
  let t: BillingTestApp;
  const { logger, lines: errorsLogged } = capturingLogger('error');
  /** When the rounds run (the app's clock, which then moves with real time): the receipts' issue day. */
  const NOW = new Date('2026-11-27T06:00:00.000Z');
  /** When the earlier payments succeeded, long before. */
  const PAID_AT = new Date('2025-06-14T09:30:00.000Z');
  const minutesAfterPaid = (minutes: number) => new Date(PAID_AT.getTime() + minutes * 60_000);

  beforeAll(async () => {
    t = await startBillingApp({ maxConnections: 8, logger });
    await t.db
      .update(organizations)
      .set({ name: 'Acme Traders', kraPin: 'A123456789Z' })
      .where(eq(organizations.id, t.organizationId));
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await clearBilling(t.db);
    t.clock.set(NOW);
    errorsLogged.length = 0;
  });

  /** A payment that succeeded at `completedAt` and was left without a receipt. */
  function earlier(completedAt: Date, row: Partial<PaymentRow> = {}): PaymentRow {
    return { createdAt: new Date(completedAt.getTime() - 60_000), completedAt, status: 'succeeded', ...row };
  }

  async function receiptPage(reference: string) {
    return t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${reference}/receipt`,
      headers: await t.headers(),
    });
  }

  it("issues an M-Pesa top-up's receipt with the next number, copying the payment; its page then answers", async () => {
    const [reference = ''] = await insertPayments(t, [
      earlier(PAID_AT, {
        method: 'mobile_money',
        channel: 'mobile_money',
        provider: 'daraja',
        phone: '254708374149',
        providerReference: 'ws_CO_140620250930001',
        amount: 2_320,
      }),
    ]);
    expect((await receiptPage(reference)).statusCode).toBe(404);
    const before = await lastReceiptNumber(t.db);

    const roundStart = t.clock.now();
    expect(await t.issueMissingReceipts()).toEqual({ found: 1, issued: 1 });
    const roundEnd = t.clock.now();

    const payment = await paymentByReference(t.db, reference);
    const sequence = before + 1;
    expect(await allReceipts(t.db)).toEqual([
      expect.objectContaining({
        sequence,
        number: `RCT-${String(sequence).padStart(6, '0')}`,
        paymentId: payment.id,
        organizationId: t.organizationId,
        issuedAt: expect.any(Date),
        sellerName: t.config.payments.seller.name,
        sellerKraPin: t.config.payments.seller.kraPin,
        buyerName: 'Acme Traders',
        buyerKraPin: 'A123456789Z',
        purpose: 'wallet_topup',
        plan: null,
        periodStart: null,
        note: null,
        total: 2_320,
        net: 2_000,
        vat: 320,
        paymentReference: reference,
        channel: 'mobile_money',
        provider: 'daraja',
        providerReference: 'ws_CO_140620250930001',
        mpesaReceiptNumber: null,
        paidAt: PAID_AT,
      }),
    ]);
    expect(await lastReceiptNumber(t.db)).toBe(sequence);
    // Issued now, by the app's clock; paid when the payment succeeded.
    const [issued] = await allReceipts(t.db);
    expect(issued?.issuedAt.getTime()).toBeGreaterThanOrEqual(roundStart.getTime());
    expect(issued?.issuedAt.getTime()).toBeLessThanOrEqual(roundEnd.getTime());

    const page = await receiptPage(reference);
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);
    expect(text).toContain(`Receipt RCT-${String(sequence).padStart(6, '0')}`);
    expect(text).toContain('Date issued 27 November 2026');
    expect(text).toContain('Paid on 14 June 2025, 12:30 EAT');
    expect(text).toContain('Provider reference ws_CO_140620250930001');
    // Long paid: the members are not told of it, as they are of a receipt issued with its success.
    expect((await notificationsOf(t.db, PAYER_ID)).map((told) => told.title)).not.toContain('Receipt issued');
  });

  it("states a subscription purchase's plan and the first period, from the day it was paid", async () => {
    const [reference = ''] = await insertPayments(t, [
      earlier(PAID_AT, {
        purpose: 'mail_subscription',
        plan: 'core',
        seats: 5,
        billingCycle: 'monthly',
        amount: 1_750,
      }),
    ]);

    await t.issueMissingReceipts();

    expect(await allReceipts(t.db)).toEqual([
      expect.objectContaining({
        paymentReference: reference,
        purpose: 'mail_subscription',
        plan: 'core',
        seats: 5,
        billingCycle: 'monthly',
        periodStart: new Date('2025-06-14T00:00:00.000Z'),
        periodEnd: new Date(`${addBillingPeriod('2025-06-14', 'monthly')}T00:00:00.000Z`),
        note: null,
      }),
    ]);
  });

  it("states a renewal's period, as its change records it", async () => {
    const subscription = await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 5,
      cycle: 'monthly',
      anchor: '2025-05-20',
      periodIndex: 1,
    });
    const [reference = ''] = await insertPayments(t, [
      earlier(PAID_AT, {
        purpose: 'mail_subscription_renewal',
        plan: 'core',
        seats: 5,
        billingCycle: 'monthly',
        amount: 1_750,
      }),
    ]);
    const payment = await paymentByReference(t.db, reference);
    const period = { start: new Date('2025-06-20T00:00:00.000Z'), end: new Date('2025-07-20T00:00:00.000Z') };
    await t.db.insert(mailSubscriptionChanges).values({
      subscriptionId: subscription.id,
      organizationId: t.organizationId,
      kind: 'renewal',
      status: 'applied',
      baseVersion: subscription.version,
      fromPlan: 'core',
      fromSeats: 5,
      fromBillingCycle: 'monthly',
      plan: 'core',
      seats: 5,
      billingCycle: 'monthly',
      billingAnchor: '2025-05-20',
      periodIndex: 1,
      periodStart: period.start,
      periodEnd: period.end,
      net: 1_750,
      creditApplied: 0,
      amountDue: 1_750,
      paymentId: payment.id,
      completedAt: PAID_AT,
    });

    await t.issueMissingReceipts();

    expect(await allReceipts(t.db)).toEqual([
      expect.objectContaining({
        paymentReference: reference,
        purpose: 'mail_subscription_renewal',
        periodStart: period.start,
        periodEnd: period.end,
        note: null,
      }),
    ]);
  });

  it('says where the money went when it went to the credit balance, or that the subscription is gone', async () => {
    const subscription = await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 5,
      cycle: 'monthly',
      anchor: '2025-06-01',
    });
    const terms = { plan: 'core', seats: 5, billingCycle: 'monthly', amount: 1_750 } as const;
    const [credited = '', changeGone = ''] = await insertPayments(t, [
      earlier(minutesAfterPaid(0), { purpose: 'mail_subscription', ...terms }),
      earlier(minutesAfterPaid(1), { purpose: 'mail_subscription_change', ...terms }),
    ]);
    const why = 'A mail subscription was already active when this purchase was paid';
    await t.db.transaction((tx) =>
      addCredit(tx, subscription, {
        amount: 1_750,
        reason: 'duplicate_purchase',
        reference: paymentCreditReference({ reference: credited }),
        description: why,
      }),
    );

    await t.issueMissingReceipts();

    expect(await allReceipts(t.db)).toEqual([
      expect.objectContaining({
        paymentReference: credited,
        periodStart: null,
        note: `${why}: the amount was added to the credit balance.`,
      }),
      expect.objectContaining({
        paymentReference: changeGone,
        periodStart: null,
        note: 'The subscription it was for no longer exists.',
      }),
    ]);
  });

  it('leaves a payment that has its receipt as it is, and takes no number for it', async () => {
    await insertPayments(t, [earlier(PAID_AT)]);
    await t.issueMissingReceipts();
    const issued = await allReceipts(t.db);
    const last = await lastReceiptNumber(t.db);
    t.clock.advance(60_000);

    expect(await t.issueMissingReceipts()).toEqual({ found: 0, issued: 0 });

    expect(await allReceipts(t.db)).toEqual(issued);
    expect(await lastReceiptNumber(t.db)).toBe(last);
  });

  it('issues none for a payment that has not succeeded', async () => {
    const last = await lastReceiptNumber(t.db);
    await insertPayments(t, [
      { createdAt: PAID_AT, status: 'pending' },
      earlier(PAID_AT, { status: 'failed', failureReason: 'Declined' }),
      earlier(PAID_AT, { status: 'expired' }),
      earlier(PAID_AT, { status: 'cancelled' }),
    ]);

    expect(await t.issueMissingReceipts()).toEqual({ found: 0, issued: 0 });

    expect(await allReceipts(t.db)).toEqual([]);
    expect(await lastReceiptNumber(t.db)).toBe(last);
  });

  it('takes a batch per round, the payment that succeeded first first; the next round the rest', async () => {
    const [third, first, second] = await insertPayments(t, [
      earlier(minutesAfterPaid(20)),
      earlier(minutesAfterPaid(0)),
      earlier(minutesAfterPaid(10)),
    ]);

    expect(await t.issueMissingReceipts(2)).toEqual({ found: 2, issued: 2 });
    expect((await allReceipts(t.db)).map((receipt) => receipt.paymentReference)).toEqual([first, second]);
    expect(await t.issueMissingReceipts(2)).toEqual({ found: 1, issued: 1 });
    expect((await allReceipts(t.db)).map((receipt) => receipt.paymentReference)).toEqual([first, second, third]);
  });

  it('stops looking in an instance once a round finds none: every later success issues its own', async () => {
    const rounds = t.missingReceiptRounds();
    const [first = ''] = await insertPayments(t, [earlier(minutesAfterPaid(0))]);
    expect(await rounds()).toEqual({ found: 1, issued: 1 });
    expect(await rounds()).toEqual({ found: 0, issued: 0 });

    // Only a payment written by hand, as here, could appear after that: the instance no longer looks.
    const [second = ''] = await insertPayments(t, [earlier(minutesAfterPaid(10))]);
    expect(await rounds()).toEqual({ found: 0, issued: 0 });
    expect((await allReceipts(t.db)).map((receipt) => receipt.paymentReference)).toEqual([first]);
    // A new instance (a restart) looks once more.
    expect(await t.missingReceiptRounds()()).toEqual({ found: 1, issued: 1 });
    expect((await allReceipts(t.db)).map((receipt) => receipt.paymentReference)).toEqual([first, second]);
  });

  it('issues exactly one receipt per payment, numbered consecutively, when three instances run a round at once', async () => {
    const references = await insertPayments(
      t,
      Array.from({ length: 12 }, (_, index) => earlier(minutesAfterPaid(index))),
    );
    const before = await lastReceiptNumber(t.db);

    const rounds = await Promise.all([t.issueMissingReceipts(), t.issueMissingReceipts(), t.issueMissingReceipts()]);

    expect(rounds.reduce((sum, round) => sum + round.issued, 0)).toBe(12);
    // A payment another instance issued meanwhile is skipped, or refused as already issued: never an error.
    expect(errorsLogged).toEqual([]);
    const issued = await allReceipts(t.db);
    expect(issued.map((receipt) => receipt.paymentReference).sort()).toEqual([...references].sort());
    expect(issued.map((receipt) => receipt.sequence)).toEqual(
      Array.from({ length: 12 }, (_, index) => before + 1 + index),
    );
    expect(await lastReceiptNumber(t.db)).toBe(before + 12);
    for (const reference of references) expect((await receiptPage(reference)).statusCode).toBe(200);
  });
});
