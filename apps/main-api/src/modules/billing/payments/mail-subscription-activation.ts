import { mailSubscriptions, type Payment, topUpWallet, type Transaction } from '@platform/db';
import { addBillingPeriod, type BillingCycle } from '@platform/pricing';
import { eq } from 'drizzle-orm';

/** The end of the period that starts at `start`: the same time of day, one calendar month or year later. */
export function periodEndOf(start: Date, cycle: BillingCycle): Date {
  const iso = start.toISOString();
  return new Date(`${addBillingPeriod(iso.slice(0, 10), cycle)}${iso.slice(10)}`);
}

/**
 * Starts the organization's mail subscription when its purchase is paid: plan, seats and cycle from the
 * payment, status active, the period starting at the moment of payment. A subscription that was not active
 * (none, past_due, canceled, expired, or active but past its period) is replaced.
 *
 * A purchase is refused while a subscription is active, so one arriving here while another is active means
 * two purchases raced and both were paid: the later one is not lost, it is credited to the organization's
 * wallet. Credit balances and renewals belong to the subscriptions module, which replaces this hook.
 */
export async function activateMailSubscription(tx: Transaction, payment: Payment): Promise<void> {
  const { plan, seats, billingCycle, completedAt } = payment;
  if (plan === null || seats === null || billingCycle === null || completedAt === null) {
    throw new Error(`Payment ${payment.reference} is not a paid mail subscription purchase`);
  }
  const [current] = await tx
    .select()
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.organizationId, payment.organizationId))
    .for('update');
  if (current !== undefined && current.status === 'active' && current.currentPeriodEnd > completedAt) {
    await topUpWallet(
      tx,
      { organizationId: payment.organizationId, environment: 'live' },
      {
        amount: payment.amount,
        reference: `payment:${payment.reference}`,
        description: 'Mail subscription already active: the payment was credited to the wallet',
      },
    );
    return;
  }
  const terms = {
    plan,
    seats,
    billingCycle,
    status: 'active' as const,
    currentPeriodStart: completedAt,
    currentPeriodEnd: periodEndOf(completedAt, billingCycle),
    updatedAt: completedAt,
  };
  await tx
    .insert(mailSubscriptions)
    .values({ organizationId: payment.organizationId, ...terms })
    .onConflictDoUpdate({ target: mailSubscriptions.organizationId, set: terms });
}
