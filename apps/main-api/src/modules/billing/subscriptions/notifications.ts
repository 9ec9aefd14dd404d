import type { MailSubscription, MailSubscriptionChange, RenewalReminderKind } from '@platform/db';
import type { NotificationContent } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { dayOf } from './periods.js';

// What the organization's members are told about their mail subscription. Each is created in the
// transaction that records the change it describes (docs/decisions.md#subscription-notifications).

/** Where each of these opens: the dashboard's Billing page (docs/decisions.md#dashboard-pages). */
const BILLING_PAGE = '/dashboard/billing';

type Terms = Pick<MailSubscription, 'plan' | 'seats' | 'billingCycle'>;

function describeTerms(terms: Terms): string {
  return `${terms.plan} plan, ${terms.seats} ${terms.seats === 1 ? 'mailbox' : 'mailboxes'}, billed ${terms.billingCycle}`;
}

function sameTerms(a: Terms, b: Terms): boolean {
  return a.plan === b.plan && a.seats === b.seats && a.billingCycle === b.billingCycle;
}

/** How a change or renewal was paid: by card (or bank transfer: a renewal invoice), from credit, or both. */
function describePayment(
  change: MailSubscriptionChange,
  paymentReference: string | undefined,
  byTransfer = false,
): string {
  const parts: string[] = [];
  const how = byTransfer ? 'paid by bank transfer' : 'charged to the card';
  if (change.amountDue > 0)
    parts.push(`${formatKes(change.amountDue)} ${how}${paymentReference ? ` (${paymentReference})` : ''}`);
  if (change.creditApplied > 0) parts.push(`${formatKes(change.creditApplied)} paid from the credit balance`);
  return parts.length === 0 ? '' : ` ${parts.join('; ')}.`;
}

export function subscriptionStarted(subscription: MailSubscription, reactivated: boolean): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'success',
    title: reactivated ? 'Mail subscription reactivated' : 'Mail subscription started',
    message: `The ${describeTerms(subscription)} is active until ${dayOf(subscription.currentPeriodEnd)} and renews automatically.`,
  };
}

export function paymentCredited(amount: number, paymentReference: string, why: string): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'info',
    title: 'Payment added to your credit',
    message: `${why}, so ${formatKes(amount)} (${paymentReference}) was added to the credit balance. Credit pays for later subscription charges.`,
  };
}

export function subscriptionChanged(change: MailSubscriptionChange, paymentReference?: string): NotificationContent {
  const title = change.kind === 'upgrade' ? 'Mail subscription upgraded' : 'Mail subscription changed';
  return {
    actionUrl: BILLING_PAGE,
    type: 'success',
    title,
    message: `Now on the ${describeTerms(change)}, until ${dayOf(change.periodEnd)}.${describePayment(change, paymentReference)}`,
  };
}

export function subscriptionRenewed(
  change: MailSubscriptionChange,
  paymentReference?: string,
  byTransfer = false,
): NotificationContent {
  const from = { plan: change.fromPlan, seats: change.fromSeats, billingCycle: change.fromBillingCycle };
  const scheduled = sameTerms(from, change) ? '' : ` (changed from the ${describeTerms(from)}, as scheduled)`;
  return {
    actionUrl: BILLING_PAGE,
    type: 'success',
    title: 'Mail subscription renewed',
    message: `The ${describeTerms(change)}${scheduled} is renewed until ${dayOf(change.periodEnd)}.${describePayment(change, paymentReference, byTransfer)}`,
  };
}

/** A downgrade asked for now, which the renewal at the period end applies (docs/decisions.md#scheduled-downgrades). */
export function changeScheduled(subscription: MailSubscription, next: Terms, price: number): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'info',
    title: 'Mail subscription change scheduled',
    message:
      `From ${dayOf(subscription.currentPeriodEnd)} the subscription moves to the ${describeTerms(next)}, ` +
      `at ${formatKes(price)} a period; until then it stays on the ${describeTerms(subscription)}. Nothing is charged ` +
      'or credited now.',
  };
}

export function scheduledChangeCanceled(subscription: MailSubscription, canceled: Terms): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'info',
    title: 'Scheduled subscription change canceled',
    message:
      `The move to the ${describeTerms(canceled)} will not happen: the ${describeTerms(subscription)} renews as it ` +
      `is on ${dayOf(subscription.currentPeriodEnd)}.`,
  };
}

/** The cancel request: what stays, and when it ends (docs/decisions.md#subscription-cancellation). */
export function subscriptionCanceling(subscription: MailSubscription): NotificationContent {
  const ends =
    subscription.status === 'past_due'
      ? `ends at its next payment attempt${subscription.renewalDueAt ? ` (${dayOf(subscription.renewalDueAt)})` : ''}, instead of being charged`
      : `stays active until ${dayOf(subscription.currentPeriodEnd)} and then ends; it will not be charged again`;
  return {
    actionUrl: BILLING_PAGE,
    type: 'warning',
    title: 'Mail subscription set to cancel',
    message: `The ${describeTerms(subscription)} ${ends}. Nothing is refunded. Resume it before then to keep it.`,
  };
}

export function subscriptionResumed(subscription: MailSubscription): NotificationContent {
  const renews =
    subscription.status === 'past_due'
      ? 'its unpaid renewal is tried again as planned'
      : `it renews on ${dayOf(subscription.currentPeriodEnd)} as before`;
  return {
    actionUrl: BILLING_PAGE,
    type: 'success',
    title: 'Mail subscription resumed',
    message: `The ${describeTerms(subscription)} is no longer set to cancel: ${renews}.`,
  };
}

/** Ended by the renewal job because it was set to cancel. */
export function subscriptionCanceled(subscription: MailSubscription, endedAt: Date): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'info',
    title: 'Mail subscription ended',
    message: `The ${describeTerms(subscription)} ended on ${dayOf(endedAt)}, as asked, and was not renewed. Nothing more is charged. Buy a plan to start again.`,
  };
}

/** A renewal coming in 7 days or tomorrow: what it costs and how it is paid (docs/decisions.md#renewal-reminders). */
export function renewalReminder(
  kind: RenewalReminderKind,
  subscription: MailSubscription,
  renewal: {
    terms: Terms;
    total: number;
    creditApplied: number;
    invoice?: { number: string; paid: boolean } | undefined;
    /** Whether a saved card the card provider can charge is there to pay what the credit does not. */
    cardOnFile: boolean;
  },
): NotificationContent {
  const when = kind === '1_day' ? 'tomorrow' : 'in 7 days';
  const { invoice } = renewal;
  const changed = sameTerms(subscription, renewal.terms)
    ? ''
    : ` (the change scheduled from the ${describeTerms(subscription)})`;
  const card = renewal.total - renewal.creditApplied;
  const credit =
    renewal.creditApplied === 0 ? '' : `${formatKes(renewal.creditApplied)} comes from the credit balance and `;
  const paid =
    invoice !== undefined
      ? invoice.paid
        ? `${credit}invoice ${invoice.number} (${formatKes(card)}) is paid`
        : `${credit}${formatKes(card)} is due by bank transfer on invoice ${invoice.number}`
      : card === 0
        ? `the credit balance pays all of it`
        : renewal.cardOnFile
          ? `${credit}${formatKes(card)} will be charged to the saved card`
          : // Said now, not only when the renewal fails (docs/decisions.md#renewal-reminders).
            `${credit}${formatKes(card)} is to be charged to a card, and no saved card can pay it: save a card before ` +
            `then, or the renewal fails and is tried again`;
  return {
    actionUrl: BILLING_PAGE,
    type: 'info',
    title: `Mail subscription renews ${when}`,
    message:
      `On ${dayOf(subscription.currentPeriodEnd)} the ${describeTerms(renewal.terms)}${changed} renews for ` +
      `${formatKes(renewal.total)}: ${paid}. To stop it, cancel the subscription before then.`,
  };
}

/** The first failure of a renewal: the subscription is past_due, and when it is tried again (docs/decisions.md#renewal-retries). */
export function renewalFailed(subscription: MailSubscription, reason: string, retries: Date[]): NotificationContent {
  const days = retries.map(dayOf);
  return {
    actionUrl: BILLING_PAGE,
    type: 'error',
    title: 'Mail subscription payment failed',
    message:
      `The renewal of the ${describeTerms(subscription)} could not be paid: ${reason}. The subscription is past due ` +
      `and is tried again on ${listDays(days)}; it ends if the last try fails. Save a new card before then to keep it.`,
  };
}

/** A retry that failed, with the next one. */
export function renewalRetryFailed(
  subscription: MailSubscription,
  reason: string,
  retry: { number: number; of: number; next: Date; last: Date },
): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'error',
    title: 'Mail subscription payment failed again',
    message:
      `Try ${retry.number} of ${retry.of} to pay the renewal of the ${describeTerms(subscription)} failed: ${reason}. ` +
      `The next try is on ${dayOf(retry.next)}; the subscription ends if the last try, on ${dayOf(retry.last)}, fails.`,
  };
}

/** Ended because its renewal was not paid by the last retry. */
export function subscriptionExpired(subscription: MailSubscription, reason: string): NotificationContent {
  return {
    actionUrl: BILLING_PAGE,
    type: 'warning',
    title: 'Mail subscription ended',
    message: `The ${describeTerms(subscription)} ended because its renewal was not paid: the last try failed (${reason}). Buy a plan to start again.`,
  };
}

function listDays(days: string[]): string {
  if (days.length <= 1) return days.join('');
  return `${days.slice(0, -1).join(', ')} and ${days.at(-1)}`;
}
