import type { MailSubscription, RenewalReminderKind, Transaction } from '@platform/db';
import {
  mailSubscriptionChanges,
  mailSubscriptionReminders,
  mailSubscriptions,
} from '@platform/db/schema/mail-subscriptions';
import { and, asc, eq, exists, gt, inArray, lte, not, notInArray, sql } from 'drizzle-orm';
import { bankTransferOf, lastPaidWithOf } from './payment-rows-repository.js';

// The renewal job's queues: the renewal due, the renewal invoice owed, the reminder owed, each taken with FOR UPDATE
// SKIP LOCKED so that instances running the job at once take different subscriptions; and the reminders sent.

/**
 * The subscription most overdue for renewal (its renewal is due by `now`, it is active or past_due, no change of it
 * is being charged to a card: a renewal invoice awaiting its bank transfer does not hold it back,
 * docs/decisions.md#renewal-invoices), locked with FOR UPDATE SKIP LOCKED: instances running the renewal job at
 * once take different subscriptions. `skip` leaves out those this round already left for later. Undefined when none
 * is due.
 */
export async function lockNextDueRenewal(
  tx: Transaction,
  now: Date,
  skip: readonly string[] = [],
): Promise<MailSubscription | undefined> {
  const charging = tx
    .select({ id: mailSubscriptionChanges.id })
    .from(mailSubscriptionChanges)
    .where(
      and(
        eq(mailSubscriptionChanges.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionChanges.status, 'charging'),
        not(exists(bankTransferOf(tx))),
      ),
    );
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        lte(mailSubscriptions.renewalDueAt, now),
        inArray(mailSubscriptions.status, ['active', 'past_due']),
        not(exists(charging)),
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  return subscription;
}

/**
 * The subscription with the soonest renewal that is owed its renewal invoice now (docs/decisions.md#renewal-invoices):
 * active, not set to cancel, renewing after `now` and by `until`, with no change being paid for (no invoice
 * already), no saved card of its own, and last paid for by bank transfer (the latest successful purchase or renewal
 * of its organization). Locked with FOR UPDATE SKIP LOCKED; `skip` leaves out those this round found nothing to
 * invoice for (the credit balance pays the renewal).
 */
export async function lockNextRenewalToInvoice(
  tx: Transaction,
  now: Date,
  until: Date,
  skip: readonly string[],
): Promise<MailSubscription | undefined> {
  const charging = tx
    .select({ id: mailSubscriptionChanges.id })
    .from(mailSubscriptionChanges)
    .where(
      and(
        eq(mailSubscriptionChanges.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionChanges.status, 'charging'),
      ),
    );
  const lastPaidWith = lastPaidWithOf(tx);
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.status, 'active'),
        eq(mailSubscriptions.cancelAtPeriodEnd, false),
        gt(mailSubscriptions.renewalDueAt, now),
        lte(mailSubscriptions.renewalDueAt, until),
        sql`${mailSubscriptions.paymentMethodId} is null`,
        not(exists(charging)),
        sql`(${lastPaidWith}) = 'bank_transfer'`,
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  return subscription;
}

/**
 * The subscription with the soonest renewal that is owed a reminder now (docs/decisions.md#renewal-reminders): active,
 * not set to cancel, renewing after `now` and at most 7 days later, and not yet reminded of that renewal with the
 * reminder due (`1_day` within a day of it, `7_days` before). Locked with FOR UPDATE SKIP LOCKED, so instances take
 * different ones; `skip` leaves out those this round left for later. Undefined when none is owed one.
 */
export async function lockNextDueReminder(
  tx: Transaction,
  now: Date,
  ahead: { oneDay: Date; sevenDays: Date },
  skip: readonly string[] = [],
): Promise<{ subscription: MailSubscription; kind: RenewalReminderKind } | undefined> {
  const dueKind = sql`case when ${mailSubscriptions.renewalDueAt} <= ${sql.param(ahead.oneDay, mailSubscriptions.renewalDueAt)} then '1_day' else '7_days' end`;
  const reminded = tx
    .select({ id: mailSubscriptionReminders.id })
    .from(mailSubscriptionReminders)
    .where(
      and(
        eq(mailSubscriptionReminders.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionReminders.renewsAt, mailSubscriptions.renewalDueAt),
        sql`${mailSubscriptionReminders.kind} = ${dueKind}`,
      ),
    );
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.status, 'active'),
        eq(mailSubscriptions.cancelAtPeriodEnd, false),
        gt(mailSubscriptions.renewalDueAt, now),
        lte(mailSubscriptions.renewalDueAt, ahead.sevenDays),
        not(exists(reminded)),
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  if (subscription?.renewalDueAt == null) return undefined;
  return { subscription, kind: subscription.renewalDueAt <= ahead.oneDay ? '1_day' : '7_days' };
}

/**
 * Records a reminder of a renewal. False when that reminder of that renewal was recorded already (another instance
 * sent it): the unique index decides, so it is sent once.
 */
export async function insertReminderOnce(
  tx: Transaction,
  values: { subscriptionId: string; kind: RenewalReminderKind; renewsAt: Date; sentAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(mailSubscriptionReminders)
    .values(values)
    .onConflictDoNothing({
      target: [
        mailSubscriptionReminders.subscriptionId,
        mailSubscriptionReminders.renewsAt,
        mailSubscriptionReminders.kind,
      ],
    })
    .returning({ id: mailSubscriptionReminders.id });
  return rows.length > 0;
}
