import type { MailSubscription, MailSubscriptionChange } from '@platform/db';
import type { NotificationContent } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { dayOf } from './periods.js';

// What the organization's members are told about their mail subscription. Each is created in the
// transaction that records the change it describes.

type Terms = Pick<MailSubscription, 'plan' | 'seats' | 'billingCycle'>;

function describeTerms(terms: Terms): string {
  return `${terms.plan} plan, ${terms.seats} ${terms.seats === 1 ? 'mailbox' : 'mailboxes'}, billed ${terms.billingCycle}`;
}

/** How a change or renewal was paid: by card, from credit, or both. */
function describePayment(change: MailSubscriptionChange, paymentReference: string | undefined): string {
  const parts: string[] = [];
  if (change.amountDue > 0)
    parts.push(`${formatKes(change.amountDue)} charged to the card${paymentReference ? ` (${paymentReference})` : ''}`);
  if (change.creditApplied > 0) parts.push(`${formatKes(change.creditApplied)} paid from the credit balance`);
  return parts.length === 0 ? '' : ` ${parts.join('; ')}.`;
}

export function subscriptionStarted(subscription: MailSubscription, reactivated: boolean): NotificationContent {
  return {
    type: 'success',
    title: reactivated ? 'Mail subscription reactivated' : 'Mail subscription started',
    message: `The ${describeTerms(subscription)} is active until ${dayOf(subscription.currentPeriodEnd)} and renews automatically.`,
  };
}

export function paymentCredited(amount: number, paymentReference: string, why: string): NotificationContent {
  return {
    type: 'info',
    title: 'Payment added to your credit',
    message: `${why}, so ${formatKes(amount)} (${paymentReference}) was added to the credit balance. Credit pays for later subscription charges.`,
  };
}

export function subscriptionChanged(change: MailSubscriptionChange, paymentReference?: string): NotificationContent {
  const title =
    change.kind === 'upgrade'
      ? 'Mail subscription upgraded'
      : change.kind === 'downgrade'
        ? 'Mail subscription downgraded'
        : 'Mail subscription changed';
  const credit = change.net < 0 ? ` ${formatKes(-change.net)} was added to the credit balance.` : '';
  return {
    type: 'success',
    title,
    message: `Now on the ${describeTerms(change)}, until ${dayOf(change.periodEnd)}.${describePayment(change, paymentReference)}${credit}`,
  };
}

export function subscriptionRenewed(change: MailSubscriptionChange, paymentReference?: string): NotificationContent {
  return {
    type: 'success',
    title: 'Mail subscription renewed',
    message: `The ${describeTerms(change)} is renewed until ${dayOf(change.periodEnd)}.${describePayment(change, paymentReference)}`,
  };
}

export function renewalFailed(subscription: MailSubscription, reason: string, endsAt: Date): NotificationContent {
  return {
    type: 'error',
    title: 'Mail subscription payment failed',
    message:
      `The renewal of the ${describeTerms(subscription)} could not be paid: ${reason}. The subscription is past due ` +
      `and is retried daily; pay for it or save a new card before ${dayOf(endsAt)}, when it ends.`,
  };
}

export function subscriptionExpired(subscription: MailSubscription): NotificationContent {
  return {
    type: 'warning',
    title: 'Mail subscription ended',
    message: `The ${describeTerms(subscription)} ended because its renewal was not paid. Buy a plan to start again.`,
  };
}
