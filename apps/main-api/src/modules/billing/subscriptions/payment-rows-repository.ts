import type { DatabaseExecutor, MailSubscriptionChange, Payment, Transaction } from '@platform/db';
import { invoices } from '@platform/db/schema/billing-documents';
import { mailSubscriptionChanges, mailSubscriptions } from '@platform/db/schema/mail-subscriptions';
import { payments } from '@platform/db/schema/payments';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';

// What subscriptions' statements read of payments' and invoices' rows: how a change or a subscription was paid (the
// renewal job's queues, in renew-repository.ts, take these subqueries), the renewal invoice being paid for, and the
// payment of a change a retirement ends. Payments and invoices own those tables; these reads stay inside
// subscriptions' own statements, so each is still one statement.

/** The bank transfer paying the change of the enclosing query, if it is paid by one. */
export function bankTransferOf(db: DatabaseExecutor) {
  return db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.id, mailSubscriptionChanges.paymentId), eq(payments.channel, 'bank_transfer')));
}

/**
 * How the organization of the enclosing query's subscription last paid for it: the channel of its latest successful
 * purchase or renewal.
 */
export function lastPaidWithOf(db: DatabaseExecutor) {
  return db
    .select({ channel: payments.channel })
    .from(payments)
    .where(
      and(
        eq(payments.organizationId, mailSubscriptions.organizationId),
        eq(payments.status, 'succeeded'),
        inArray(payments.purpose, ['mail_subscription', 'mail_subscription_renewal']),
      ),
    )
    .orderBy(desc(payments.completedAt))
    .limit(1);
}

/** A renewal change still being paid for by bank transfer (a renewal invoice), of the subscription or organization. */
function outstandingRenewalInvoice(of: { subscriptionId: string } | { organizationId: string }): SQL | undefined {
  return and(
    'subscriptionId' in of
      ? eq(mailSubscriptionChanges.subscriptionId, of.subscriptionId)
      : eq(mailSubscriptionChanges.organizationId, of.organizationId),
    eq(mailSubscriptionChanges.status, 'charging'),
    eq(mailSubscriptionChanges.kind, 'renewal'),
    eq(payments.channel, 'bank_transfer'),
  );
}

async function findOutstandingRenewalInvoice(
  tx: Transaction,
  of: { subscriptionId: string } | { organizationId: string },
): Promise<{ changeId: string; paymentId: string } | undefined> {
  const [found] = await tx
    .select({ changeId: mailSubscriptionChanges.id, paymentId: payments.id })
    .from(mailSubscriptionChanges)
    .innerJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .where(outstandingRenewalInvoice(of));
  return found;
}

async function lockChargingChange(tx: Transaction, changeId: string): Promise<MailSubscriptionChange | undefined> {
  const [change] = await tx
    .select()
    .from(mailSubscriptionChanges)
    .where(eq(mailSubscriptionChanges.id, changeId))
    .for('update');
  return change?.status === 'charging' ? change : undefined;
}

/**
 * The subscription's renewal invoice still being paid for: its change (locked) and its bank transfer, locked with
 * SKIP LOCKED so that the job never waits for a confirmation that holds it (confirmations lock the payment first,
 * then the change and the subscription). `busy` when a confirmation holds it; undefined when there is none.
 */
export async function lockRenewalInvoiceOf(
  tx: Transaction,
  subscriptionId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment } | 'busy' | undefined> {
  const found = await findOutstandingRenewalInvoice(tx, { subscriptionId });
  if (found === undefined) return undefined;
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, found.paymentId))
    .for('update', { skipLocked: true });
  if (payment === undefined) return 'busy';
  const change = await lockChargingChange(tx, found.changeId);
  return change === undefined ? 'busy' : { change, payment };
}

/**
 * The organization's renewal invoice still being paid for, locked as a confirmation locks it (its payment first, then
 * its change), so that a cancel, which then locks the subscription, never waits in the other order. Undefined when
 * there is none.
 */
export async function lockRenewalInvoiceOfOrganization(
  tx: Transaction,
  organizationId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment } | undefined> {
  const found = await findOutstandingRenewalInvoice(tx, { organizationId });
  if (found === undefined) return undefined;
  const [payment] = await tx.select().from(payments).where(eq(payments.id, found.paymentId)).for('update');
  const change = await lockChargingChange(tx, found.changeId);
  return payment === undefined || change === undefined ? undefined : { change, payment };
}

/** The number of the subscription's renewal invoice still being paid for, and whether it is paid; read unlocked. */
export async function renewalInvoiceNumberOf(
  db: DatabaseExecutor,
  subscriptionId: string,
): Promise<{ number: string; paid: boolean } | undefined> {
  const [found] = await db
    .select({ number: invoices.number, status: payments.status })
    .from(mailSubscriptionChanges)
    .innerJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .innerJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(outstandingRenewalInvoice({ subscriptionId }));
  return found === undefined ? undefined : { number: found.number, paid: found.status === 'succeeded' };
}

/**
 * The subscription's change still being paid for, locked, with the payment paying it (read, not locked): what a
 * retirement ends (docs/decisions.md#retired-organizations-take-no-money). Undefined when there is none.
 */
export async function lockChargingChangeOf(
  tx: Transaction,
  subscriptionId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment | null } | undefined> {
  const [found] = await tx
    .select({ change: mailSubscriptionChanges, payment: payments })
    .from(mailSubscriptionChanges)
    .leftJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .where(
      and(eq(mailSubscriptionChanges.subscriptionId, subscriptionId), eq(mailSubscriptionChanges.status, 'charging')),
    )
    .for('update', { of: mailSubscriptionChanges });
  return found;
}
