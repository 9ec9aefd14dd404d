import type { Payment } from '@platform/db';
import { mailSubscriptions, paymentMethods, payments } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { auditEventsOf, confirmTransfer } from '../../../test/bank-transfer-fixtures.js';
import { insertPayments, liveBalance } from '../../../test/billing-fixtures.js';
import {
  newCustomer,
  paymentWithReceipts,
  type RetirementTestApp,
  retire,
  retiredAtOf,
  startedFor,
  startRetirementApp,
} from '../../../test/retirement-fixtures.js';
import { insertSavedCard, insertSubscription } from '../../../test/subscription-fixtures.js';

// An organization retired at the very moment money for it settles (docs/decisions.md#retired-organizations-take-no-money):
// the organization's row decides, so either the money landed first and the retirement then ended what it started (the
// subscription canceled, the top-up credited before), or the settlement waited and recorded the money to refund. Never
// an activation after the retirement, never money lost, never a deadlock. Races need concurrent transactions: PostgreSQL
// only.

const PURCHASE = { type: 'mail_subscription', plan: 'core', seats: 5, billingCycle: 'monthly' } as const;
const ROUNDS = 6;

describe.skipIf(missing(postgresServer))('retirement and settlement at the same moment (PostgreSQL)', () => {
  let r: RetirementTestApp;
  /** Which side won each race, to show in a failure what the rounds did. */
  const winners: string[] = [];

  beforeAll(async () => {
    r = await startRetirementApp({ maxConnections: 12 });
  });
  afterAll(async () => {
    await r?.close();
  });

  async function subscriptionStatusOf(organizationId: string): Promise<string> {
    const [row] = await r.t.db
      .select()
      .from(mailSubscriptions)
      .where(eq(mailSubscriptions.organizationId, organizationId));
    return row?.status ?? 'none';
  }

  /**
   * The books of one race: the money either succeeded before the retirement (and what it bought was ended by it) or is
   * to refund with nothing applied; alarmed once when it is to refund.
   */
  async function expectDecidedInOnePlace(
    organizationId: string,
    reference: string,
    bought: 'subscription' | 'top_up',
  ): Promise<void> {
    const retiredAt = await retiredAtOf(r.t, organizationId);
    expect(retiredAt).not.toBeNull();
    const { payment, receipts } = await paymentWithReceipts(r.t, reference);
    expect(['succeeded', 'refund_due']).toContain(payment.status);
    winners.push(payment.status);
    const subscription = await subscriptionStatusOf(organizationId);
    expect(subscription).not.toBe('active');
    const alarms = r.logs.lines.filter(
      (line) => line['alarm'] === 'retired_organization_payment' && line['reference'] === reference,
    );
    // What the retirement found, read in its own transaction: the order the two committed in.
    const [retirement] = await auditEventsOf(r.t.db, organizationId, 'organization.retired');
    const found = retirement?.details as { paymentsWithProviders: number; transfersVoided: number };
    const leftPending = found.paymentsWithProviders + found.transfersVoided;
    expect(leftPending).toBe(payment.status === 'succeeded' ? 0 : 1);
    if (payment.status === 'succeeded') {
      // It landed first: the retirement, which came after, found what it bought and ended it.
      expect(receipts).toBe(1);
      expect(alarms).toHaveLength(0);
      if (bought === 'subscription') {
        expect(subscription).toBe('canceled');
        const canceled = await auditEventsOf(r.t.db, organizationId, 'subscription.canceled');
        expect(canceled.map((event) => event.details)).toEqual([
          expect.objectContaining({ reason: 'organization_retired' }),
        ]);
      } else {
        expect(await liveBalance(r.t.db, organizationId)).toBe(payment.amount);
      }
    } else {
      expect(receipts).toBe(0);
      expect(alarms).toHaveLength(1);
      if (bought === 'subscription') expect(subscription).toBe('none');
      else expect(await liveBalance(r.t.db, organizationId)).toBe(0);
    }
  }

  it('decides a Paystack success and the retirement in one place', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const organizationId = await newCustomer(r.t);
      const { reference } = await startedFor(r.t, organizationId, { method: 'card', amount: 0, metadata: PURCHASE });
      r.paystack.completeCheckout(reference);
      const [retired, delivered] = await Promise.all([
        retire(r.t, organizationId),
        r.paystack.deliverWebhook(r.paystack.chargeSuccessEvent(reference)),
      ]);
      expect(retired.statusCode, retired.body).toBe(200);
      expect(delivered.status).toBe(200);
      await expectDecidedInOnePlace(organizationId, reference, 'subscription');
    }
  });

  it("decides finance's confirmation of a bank transfer and the retirement in one place", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const organizationId = await newCustomer(r.t);
      const { reference } = await startedFor(r.t, organizationId, {
        method: 'bank_transfer',
        amount: 0,
        metadata: PURCHASE,
      });
      const [retired, confirmed] = await Promise.all([
        retire(r.t, organizationId),
        confirmTransfer(r.t, reference, { amountReceived: 500, bankReference: `FT-RACE-${reference.slice(4, 16)}` }),
      ]);
      expect(retired.statusCode, retired.body).toBe(200);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json().data.outcome).toBe(
        (await paymentWithReceipts(r.t, reference)).payment.status === 'succeeded' ? 'applied' : 'refund_due',
      );
      await expectDecidedInOnePlace(organizationId, reference, 'subscription');
    }
  });

  it('decides an M-Pesa success callback and the retirement in one place', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const organizationId = await newCustomer(r.t);
      const { reference } = await startedFor(r.t, organizationId, {
        method: 'mobile_money',
        amount: 1_000,
        phone: '0708374149',
      });
      const checkoutRequestId = r.daraja.lastPrompt().checkoutRequestId;
      r.daraja.answer(checkoutRequestId, 0);
      const [retired, delivered] = await Promise.all([
        retire(r.t, organizationId),
        r.daraja.deliverCallback(checkoutRequestId),
      ]);
      expect(retired.statusCode, retired.body).toBe(200);
      expect(delivered.status).toBe(200);
      await expectDecidedInOnePlace(organizationId, reference, 'top_up');
    }
  });

  it('never renews a subscription for an organization retired while the renewal job runs', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const organizationId = await newCustomer(r.t);
      const cardId = await insertSavedCard(r.t.db, organizationId, { provider: 'paystack' });
      const [card] = await r.t.db.select().from(paymentMethods).where(eq(paymentMethods.id, cardId));
      r.paystack.approvedAuthorizations.add(card?.authorizationCode ?? '');
      const paidAt = new Date(r.t.clock.now().getTime() - 40 * 86_400_000);
      await insertPayments(r.t, [{ createdAt: paidAt, provider: 'paystack' }], organizationId);
      await insertSubscription(r.t.db, organizationId, {
        plan: 'core',
        seats: 5,
        cycle: 'monthly',
        anchor: paidAt.toISOString().slice(0, 10),
        paymentMethodId: cardId,
      });
      const [retired] = await Promise.all([retire(r.t, organizationId), r.t.renew()]);
      expect(retired.statusCode, retired.body).toBe(200);
      const renewals: Payment[] = await r.t.db
        .select()
        .from(payments)
        .where(and(eq(payments.organizationId, organizationId), eq(payments.purpose, 'mail_subscription_renewal')));
      for (const renewal of renewals) {
        // Renewed before the retirement (which then ended the subscription), withdrawn before the charge, or charged
        // as it retired: then to refund.
        expect(['succeeded', 'cancelled', 'refund_due']).toContain(renewal.status);
        winners.push(`renewal ${renewal.status}`);
      }
      expect(await subscriptionStatusOf(organizationId)).toBe('canceled');
    }
    // What the races came to, for the record of a run (both orders are possible; which ones came is the machine's).
    console.info(`retirement races: ${winners.join(', ')}`);
  });

  it('records a renewal charge the bank answers after the retirement to refund: nothing renewed', async () => {
    const organizationId = await newCustomer(r.t);
    const cardId = await insertSavedCard(r.t.db, organizationId, { provider: 'paystack' });
    const [card] = await r.t.db.select().from(paymentMethods).where(eq(paymentMethods.id, cardId));
    r.paystack.approvedAuthorizations.add(card?.authorizationCode ?? '');
    const paidAt = new Date(r.t.clock.now().getTime() - 40 * 86_400_000);
    await insertPayments(r.t, [{ createdAt: paidAt, provider: 'paystack' }], organizationId);
    const before = await insertSubscription(r.t.db, organizationId, {
      plan: 'core',
      seats: 5,
      cycle: 'monthly',
      anchor: paidAt.toISOString().slice(0, 10),
      paymentMethodId: cardId,
    });
    // The bank holds the charge until the organization has been retired.
    let answerCharge = () => {};
    r.paystack.chargeGate = new Promise<void>((resolve) => {
      answerCharge = resolve;
    });
    const charges = r.paystack.charges().length;
    const renewing = r.t.renew();
    try {
      await eventually(() => r.paystack.charges().length > charges || undefined);
      const retired = await retire(r.t, organizationId);
      expect(retired.statusCode, retired.body).toBe(200);
    } finally {
      answerCharge();
      r.paystack.chargeGate = undefined;
    }
    await renewing;
    const [renewal] = await r.t.db
      .select()
      .from(payments)
      .where(and(eq(payments.organizationId, organizationId), eq(payments.purpose, 'mail_subscription_renewal')));
    expect(renewal?.status).toBe('refund_due');
    const [after] = await r.t.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.id, before.id));
    expect(after).toMatchObject({ status: 'canceled', periodIndex: before.periodIndex });
    expect((await paymentWithReceipts(r.t, renewal?.reference ?? '')).receipts).toBe(0);
    expect(
      r.logs.lines.filter(
        (line) => line['alarm'] === 'retired_organization_payment' && line['reference'] === renewal?.reference,
      ),
    ).toHaveLength(1);
  });
});
