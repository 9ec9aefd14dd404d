import { memberships, organizations, paymentMethods, payments } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf } from '../../../test/bank-transfer-fixtures.js';
import { insertPayments, testReceipts, transitionsOf } from '../../../test/billing-fixtures.js';
import { newCustomer, type RetirementTestApp } from '../../../test/retirement-fixtures.js';
import { useRetirementSuite } from '../../../test/retirement-suite.js';
import { insertSavedCard, insertSubscription } from '../../../test/subscription-fixtures.js';
import { chargeSavedCardPayment, insertPendingPayment, newPaymentReference } from './payments/index.js';
import { createPaymentProviders } from './providers/from-config.js';
import { subscriptionPaymentHooks } from './subscriptions/index.js';

// Renewals of a retired organization (docs/decisions.md#retired-organizations-take-no-money): never charged, never
// invoiced, and a charge claimed before the retirement committed is cancelled instead of sent.

const suite = useRetirementSuite();
const { subscriptionRowOf, retired } = suite;
let r: RetirementTestApp;
beforeAll(() => {
  r = suite.r;
});

describe('renewals of a retired organization', () => {
  /** An organization with an active subscription whose renewal is due now, and a card Paystack would charge. */
  async function dueForRenewal(): Promise<{ organizationId: string; cardId: string }> {
    const organizationId = await newCustomer(r.t);
    const cardId = await insertSavedCard(r.t.db, organizationId, { provider: 'paystack' });
    // What the subscription was bought with: money history, so the organization is retired, not deleted.
    await insertPayments(
      r.t,
      [{ createdAt: new Date(r.t.clock.now().getTime() - 40 * 86_400_000), provider: 'paystack' }],
      organizationId,
    );
    const [card] = await r.t.db.select().from(paymentMethods).where(eq(paymentMethods.id, cardId));
    r.paystack.approvedAuthorizations.add(card?.authorizationCode ?? '');
    const anchor = new Date(r.t.clock.now().getTime() - 40 * 86_400_000).toISOString().slice(0, 10);
    await insertSubscription(r.t.db, organizationId, {
      plan: 'core',
      seats: 5,
      cycle: 'monthly',
      anchor,
      paymentMethodId: cardId,
    });
    return { organizationId, cardId };
  }

  it('never charges one, nor one retired before retirements ended subscriptions', async () => {
    const byDelete = await dueForRenewal();
    await retired(byDelete.organizationId);
    // Retired before subscriptions were ended by the retirement: still active, still due.
    const legacy = await dueForRenewal();
    await r.t.db
      .update(organizations)
      .set({ retiredAt: r.t.clock.now() })
      .where(eq(organizations.id, legacy.organizationId));
    await r.t.db.delete(memberships).where(eq(memberships.organizationId, legacy.organizationId));
    const charged = r.paystack.charges().length;

    const round = await r.t.renew();
    expect(round).toMatchObject({ renewed: 0, pending: 0, failed: 0 });
    expect(r.paystack.charges()).toHaveLength(charged);
    for (const { organizationId } of [byDelete, legacy]) {
      expect((await subscriptionRowOf(organizationId))?.status).toBe('canceled');
      const renewals = await r.t.db
        .select()
        .from(payments)
        .where(and(eq(payments.organizationId, organizationId), eq(payments.purpose, 'mail_subscription_renewal')));
      expect(renewals).toEqual([]);
    }
    expect((await auditEventsOf(r.t.db, legacy.organizationId, 'subscription.canceled')).at(-1)?.details).toMatchObject(
      {
        reason: 'organization_retired',
      },
    );
  });

  it('does not send a renewal charge claimed before the retirement committed: it is cancelled instead', async () => {
    const { organizationId, cardId } = await dueForRenewal();
    const [card] = await r.t.db.select().from(paymentMethods).where(eq(paymentMethods.id, cardId));
    // The job's claim committed this pending charge; the retirement commits before the job sends it.
    const payment = await r.t.db.transaction((tx) =>
      insertPendingPayment(tx, {
        reference: newPaymentReference(),
        organizationId,
        userId: null,
        method: 'saved_method',
        channel: 'card',
        purpose: 'wallet_topup',
        provider: 'paystack',
        amount: 500,
        paymentMethodId: cardId,
        nextCheckAt: r.t.clock.now(),
        createdAt: r.t.clock.now(),
      }),
    );
    await retired(organizationId);
    const charged = r.paystack.charges().length;
    const providers = createPaymentProviders(r.t.config.payments, {
      publicUrl: r.t.url,
      now: r.t.clock.now,
      log: r.logs.logger,
      providerTimeout: r.t.timeouts.timeout,
      deliverSandboxStkCallback: async () => undefined,
    });
    try {
      const ctx = {
        db: r.t.db,
        now: r.t.clock.now,
        hooks: subscriptionPaymentHooks,
        receipts: testReceipts,
        log: r.logs.logger,
      };
      const after = await chargeSavedCardPayment(ctx, providers.card, payment, {
        authorizationCode: card?.authorizationCode ?? '',
        email: 'payer@example.com',
      });
      expect(after.status).toBe('cancelled');
    } finally {
      await providers.close();
    }
    expect(r.paystack.charges()).toHaveLength(charged);
    expect(await transitionsOf(r.t.db, payment.id)).toEqual(['pending->cancelled']);
  });

  it('issues no renewal invoice to one paid by bank transfer', async () => {
    const organizationId = await newCustomer(r.t);
    const anchor = new Date(r.t.clock.now().getTime() - 20 * 86_400_000).toISOString().slice(0, 10);
    await insertSubscription(r.t.db, organizationId, { plan: 'core', seats: 5, cycle: 'monthly', anchor });
    // Last paid by bank transfer, so its renewal is invoiced 14 days ahead; then retired before that rule.
    await r.t.db.insert(payments).values({
      reference: newPaymentReference(),
      organizationId,
      method: 'bank_transfer',
      channel: 'bank_transfer',
      purpose: 'mail_subscription',
      provider: 'bank_transfer',
      status: 'succeeded',
      amount: 500,
      plan: 'core',
      seats: 5,
      billingCycle: 'monthly',
      accountReference: 'BT7QK2M9XP',
      providerReference: 'FT-LEGACY-PAID',
      nextCheckAt: r.t.clock.now(),
      completedAt: new Date(r.t.clock.now().getTime() - 20 * 86_400_000),
    });
    await r.t.db.update(organizations).set({ retiredAt: r.t.clock.now() }).where(eq(organizations.id, organizationId));
    const round = await r.t.renew();
    expect(round.invoiced).toBe(0);
    expect(
      await r.t.db
        .select()
        .from(payments)
        .where(and(eq(payments.organizationId, organizationId), eq(payments.purpose, 'mail_subscription_renewal'))),
    ).toEqual([]);
    expect((await subscriptionRowOf(organizationId))?.status).toBe('canceled');
  });
});
