import type { PaymentProvider, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { quote } from '@platform/pricing';
import { renewalReminder } from './notifications.js';
import { renewalInvoiceNumberOf } from './payment-rows-repository.js';
import { insertReminderOnce, lockNextDueReminder } from './renew-repository.js';
import { standingOfClaimed } from './retirement.js';
import { cardForRenewal } from './saved-cards.js';
import { renewalTermsOf } from './scheduled-change.js';

// Reminders of a coming renewal, 7 days and 1 day before it, to every member (docs/decisions.md#renewal-reminders).
// Each is recorded in mail_subscription_reminders in the transaction that notifies, and the unique index on
// (subscription, renewal, kind) lets only one instance record it: sent once per renewal however many run the job.

const DAY_MS = 24 * 60 * 60 * 1000;

/** `left_for_later`: its organization is being retired (or was: the subscription has just been ended instead). */
export type ReminderStep = 'sent' | 'already_sent' | 'left_for_later';

/**
 * One short transaction of the renewal job: takes the subscription owed a reminder with the soonest renewal,
 * records the reminder and notifies the members. `already_sent` when another instance recorded it first (nothing is
 * sent); undefined when no reminder is owed.
 */
export async function sendNextRenewalReminder(
  tx: Transaction,
  now: Date,
  cardProvider: PaymentProvider,
  skip: readonly string[] = [],
): Promise<{ step: ReminderStep; subscriptionId: string } | undefined> {
  const due = await lockNextDueReminder(
    tx,
    now,
    { oneDay: new Date(now.getTime() + DAY_MS), sevenDays: new Date(now.getTime() + 7 * DAY_MS) },
    skip,
  );
  if (due === undefined) return undefined;
  const { subscription, kind } = due;
  const subscriptionId = subscription.id;
  // Its organization's row before anything that notifies (docs/decisions.md#retired-organizations-take-no-money).
  if ((await standingOfClaimed(tx, subscription, now)) !== 'open') return { step: 'left_for_later', subscriptionId };
  const renewsAt = subscription.renewalDueAt ?? subscription.currentPeriodEnd;
  if (!(await insertReminderOnce(tx, { subscriptionId: subscription.id, kind, renewsAt, sentAt: now }))) {
    return { step: 'already_sent', subscriptionId };
  }
  const terms = renewalTermsOf(subscription);
  const { total } = quote(terms);
  const creditApplied = Math.min(subscription.creditBalance, total);
  // A renewal paid by bank transfer names its invoice instead of a card (docs/decisions.md#renewal-invoices).
  const invoice = await renewalInvoiceNumberOf(tx, subscription.id);
  const cardOnFile =
    invoice === undefined && creditApplied < total
      ? (await cardForRenewal(tx, subscription, cardProvider)) !== undefined
      : false;
  await notifyOrganizationMembers(
    tx,
    subscription.organizationId,
    renewalReminder(kind, subscription, {
      terms: { plan: terms.plan, seats: terms.seats, billingCycle: terms.cycle },
      total,
      creditApplied,
      invoice,
      cardOnFile,
    }),
  );
  return { step: 'sent', subscriptionId };
}
