import { memberships, paymentMethods, payments } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, confirmTransfer } from '../../../test/bank-transfer-fixtures.js';
import {
  alarmsRaised,
  liveBalance,
  notificationsOf,
  PAYER_ID,
  paymentByReference,
  transitionsOf,
} from '../../../test/billing-fixtures.js';
import {
  newCustomer,
  payerHeaders,
  payFor,
  paymentWithReceipts,
  type RetirementTestApp,
  refundsDue,
  startedFor,
} from '../../../test/retirement-fixtures.js';
import { useRetirementSuite } from '../../../test/retirement-suite.js';
import { ORGANIZATION_RETIRED } from './payments/index.js';

// A retired organization takes no more money (docs/decisions.md#retired-organizations-take-no-money): after DELETE
// /v1/organizations/:id retired it, a card checkout, an M-Pesa prompt, a bank transfer and a renewal that were on their
// way activate nothing, credit nothing and tell no one; what arrives anyway is recorded to refund, listed for finance
// and alarmed once.

const PURCHASE = { type: 'mail_subscription', plan: 'core', seats: 5, billingCycle: 'monthly' } as const;
const MINUTE = 60_000;

const suite = useRetirementSuite();
const { subscriptionRowOf, retired } = suite;
let r: RetirementTestApp;
beforeAll(() => {
  r = suite.r;
});

const alarmLines = (reference: string) =>
  r.logs.lines.filter(
    (line) =>
      line['level'] === 50 && line['alarm'] === 'retired_organization_payment' && line['reference'] === reference,
  );

/** How many notifications the payer has: a payment for a retired organization adds none. */
async function payerNotifications(): Promise<number> {
  return (await notificationsOf(r.t.db, PAYER_ID)).length;
}

/** What a payment arriving for a retired organization leaves: to refund, and nothing else. */
async function expectRefundDueOnly(
  reference: string,
  organizationId: string,
  arrived: { reportedBy: string; amount: number; notifiedBefore: number },
) {
  const { payment, receipts } = await paymentWithReceipts(r.t, reference);
  expect(payment.status).toBe('refund_due');
  expect(receipts).toBe(0);
  expect((await subscriptionRowOf(organizationId))?.status ?? 'none').not.toBe('active');
  expect(await payerNotifications()).toBe(arrived.notifiedBefore);
  expect(alarmLines(reference)).toHaveLength(1);
  expect((await auditEventsOf(r.t.db, organizationId, 'payment.refund_due')).map((event) => event.targetId)).toEqual([
    reference,
  ]);
  const listed = (await refundsDue(r.t)).find((refund) => refund['reference'] === reference);
  expect(listed).toMatchObject({
    organization: { id: organizationId, retiredAt: expect.any(String) },
    amountToRefund: arrived.amount,
    reportedBy: arrived.reportedBy,
    receivedAt: expect.any(String),
  });
}

describe('money that arrives for a retired organization', () => {
  it('records a card success after the retirement to refund: no subscription, no receipt, no one told, one alarm', async () => {
    const organizationId = await newCustomer(r.t);
    const { reference } = await startedFor(r.t, organizationId, { method: 'card', amount: 0, metadata: PURCHASE });
    const alarms = await alarmsRaised(r.t.app, 'retired_organization_payment');
    await retired(organizationId);
    // No provider can withdraw a checkout: it stays as Paystack holds it, asked about like any other.
    expect((await paymentByReference(r.t.db, reference)).status).toBe('pending');

    const notifiedBefore = await payerNotifications();
    r.paystack.completeCheckout(reference);
    const event = r.paystack.chargeSuccessEvent(reference);
    expect(await r.paystack.deliverWebhook(event)).toEqual({ status: 200, body: '{"success":true}' });
    expect(await r.paystack.deliverWebhook(event)).toEqual({ status: 200, body: '{"success":true}' });

    await expectRefundDueOnly(reference, organizationId, {
      reportedBy: 'paystack_webhook',
      amount: 500,
      notifiedBefore,
    });
    expect(await subscriptionRowOf(organizationId)).toBeUndefined();
    const payment = await paymentByReference(r.t.db, reference);
    expect(await transitionsOf(r.t.db, payment.id)).toEqual(['pending->refund_due']);
    expect(await r.t.db.select().from(paymentMethods).where(eq(paymentMethods.organizationId, organizationId))).toEqual(
      [],
    );
    expect(await alarmsRaised(r.t.app, 'retired_organization_payment')).toBe(alarms + 1);
    // Paystack's lookup finds it paid too: still once.
    r.t.clock.advance(2 * 60 * MINUTE);
    await r.t.reconcile();
    expect(await alarmsRaised(r.t.app, 'retired_organization_payment')).toBe(alarms + 1);
  });

  it('records an M-Pesa success callback after the retirement to refund: the wallet is not credited', async () => {
    const organizationId = await newCustomer(r.t);
    const { reference } = await startedFor(r.t, organizationId, {
      method: 'mobile_money',
      amount: 1_500,
      phone: '0708374149',
    });
    const checkoutRequestId = r.daraja.lastPrompt().checkoutRequestId;
    await retired(organizationId);
    const notifiedBefore = await payerNotifications();
    r.daraja.answer(checkoutRequestId, 0);
    expect((await r.daraja.deliverCallback(checkoutRequestId)).status).toBe(200);
    expect((await r.daraja.deliverCallback(checkoutRequestId)).status).toBe(200);

    await expectRefundDueOnly(reference, organizationId, {
      reportedBy: 'daraja_callback',
      amount: 1_500,
      notifiedBefore,
    });
    expect(await liveBalance(r.t.db, organizationId)).toBe(0);
    const listed = (await refundsDue(r.t)).find((refund) => refund['reference'] === reference);
    expect(listed).toMatchObject({ channel: 'mobile_money', mpesaReceiptNumber: expect.any(String) });
  });

  it('records a success the reconciliation query finds after the retirement to refund', async () => {
    const organizationId = await newCustomer(r.t);
    const { reference } = await startedFor(r.t, organizationId, {
      method: 'mobile_money',
      amount: 2_000,
      phone: '0708374149',
    });
    const checkoutRequestId = r.daraja.lastPrompt().checkoutRequestId;
    await retired(organizationId);
    // The callback is lost; the status query is how the money is found.
    const notifiedBefore = await payerNotifications();
    r.daraja.answer(checkoutRequestId, 0);
    r.t.clock.advance(3 * MINUTE);
    await r.t.reconcile();
    await expectRefundDueOnly(reference, organizationId, { reportedBy: 'daraja_query', amount: 2_000, notifiedBefore });
    expect(await liveBalance(r.t.db, organizationId)).toBe(0);
  });

  it('voids a pending bank transfer at the retirement, and records what finance confirms for it anyway to refund', async () => {
    const organizationId = await newCustomer(r.t);
    const { reference } = await startedFor(r.t, organizationId, {
      method: 'bank_transfer',
      amount: 0,
      metadata: PURCHASE,
    });
    await retired(organizationId);
    const voided = await paymentByReference(r.t.db, reference);
    expect(voided.status).toBe('cancelled');
    expect(await transitionsOf(r.t.db, voided.id)).toEqual(['pending->cancelled']);

    const alarms = await alarmsRaised(r.t.app, 'retired_organization_payment');
    const notifiedBefore = await payerNotifications();
    const confirmed = await confirmTransfer(r.t, reference, { amountReceived: 500, bankReference: 'FT-RETIRED-1' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ outcome: 'refund_due', transfer: { status: 'refund_due' } });
    expect(confirmed.json().message).toContain('Nothing was applied: the payment is listed to refund');
    await expectRefundDueOnly(reference, organizationId, { reportedBy: 'finance', amount: 500, notifiedBefore });
    expect(await subscriptionRowOf(organizationId)).toBeUndefined();
    // A second line of the statement for it: recorded too, added to what is refunded, no second alarm.
    const more = await confirmTransfer(r.t, reference, { amountReceived: 200, bankReference: 'FT-RETIRED-2' });
    expect(more.json().data.outcome).toBe('refund_due');
    expect(await alarmsRaised(r.t.app, 'retired_organization_payment')).toBe(alarms + 1);
    expect((await refundsDue(r.t)).find((refund) => refund['reference'] === reference)).toMatchObject({
      amountToRefund: 700,
      bankReferences: ['FT-RETIRED-1', 'FT-RETIRED-2'],
    });
    expect((await auditEventsOf(r.t.db, r.t.platformOrganizationId, 'bank_transfer.refund_due')).at(-1)).toMatchObject({
      targetId: reference,
      details: { amountReceived: 200, receivedBefore: 500 },
    });
  });

  it('puts a bank transfer whose first part had arrived to refund at the retirement, with one alarm', async () => {
    const organizationId = await newCustomer(r.t);
    const { reference } = await startedFor(r.t, organizationId, { method: 'bank_transfer', amount: 10_000 });
    expect(
      (await confirmTransfer(r.t, reference, { amountReceived: 4_000, bankReference: 'FT-PART-R' })).json().data
        .outcome,
    ).toBe('partial');
    const alarms = await alarmsRaised(r.t.app, 'retired_organization_payment');
    await retired(organizationId);
    expect(await alarmsRaised(r.t.app, 'retired_organization_payment')).toBe(alarms + 1);
    expect((await paymentByReference(r.t.db, reference)).status).toBe('refund_due');
    expect(await liveBalance(r.t.db, organizationId)).toBe(0);
    expect((await refundsDue(r.t)).find((refund) => refund['reference'] === reference)).toMatchObject({
      amountToRefund: 4_000,
      reportedBy: 'organization_retired',
    });
  });
});

describe('what a retired organization can no longer start', () => {
  it('refuses a payment and a plan change that passed the membership check before the retirement committed', async () => {
    const organizationId = await newCustomer(r.t);
    await startedFor(r.t, organizationId, { method: 'card', amount: 100 });
    await retired(organizationId);
    // As a request that passed the membership check just before the retirement committed sees it.
    await r.t.db.insert(memberships).values({ organizationId, userId: PAYER_ID, role: 'owner' });
    const before = await r.t.db.select().from(payments).where(eq(payments.organizationId, organizationId));
    for (const body of [
      { method: 'card', amount: 100 },
      { method: 'bank_transfer', amount: 100 },
      { method: 'mobile_money', amount: 100, phone: '0708374149' },
    ]) {
      const refused = await payFor(r.t, organizationId, body);
      expect(refused.statusCode, body.method).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'conflict', error: ORGANIZATION_RETIRED });
    }
    const upgrade = await r.t.app.inject({
      method: 'POST',
      url: '/v1/billing/upgrade',
      headers: await payerHeaders(r.t, organizationId),
      payload: { newPlan: 'growth', newSeats: 5, newCycle: 'monthly' },
    });
    expect(upgrade.statusCode).toBe(409);
    expect(upgrade.json().error).toBe(ORGANIZATION_RETIRED);
    expect(await r.t.db.select().from(payments).where(eq(payments.organizationId, organizationId))).toEqual(before);
  });
});
