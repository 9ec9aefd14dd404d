import type { InvoiceIssuer } from '../payments/index.js';
import {
  invoiceNextRenewal,
  type RenewalOutcome,
  remindNextRenewal,
  renewNextDueSubscription,
  type SubscriptionDeps,
} from './service.js';

export interface RenewalDeps extends SubscriptionDeps {
  /** Issues the invoices of renewals paid by bank transfer (docs/decisions.md#renewal-invoices). */
  invoices: InvoiceIssuer;
  /** Reminders, and then subscriptions, taken per round. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 50;

export interface RenewalRound extends Record<RenewalOutcome, number> {
  /** Renewals paid by bank transfer invoiced 14 days ahead (docs/decisions.md#renewal-invoices). */
  invoiced: number;
  /** Reminders of a renewal 7 days or 1 day ahead sent (docs/decisions.md#renewal-reminders). */
  reminded: number;
  /** Moved to their next period (paid by card, or from credit). */
  renewed: number;
  /** Not paid: past_due, retried later (docs/decisions.md#renewal-retries). */
  failed: number;
  /** Not paid by the last retry: ended. */
  expired: number;
  /** Set to cancel: ended at the period end without a charge (docs/decisions.md#subscription-cancellation). */
  canceled: number;
  /** Charged, but the card provider has not answered finally yet (the reconciliation job settles them). */
  pending: number;
}

/**
 * One round of the renewal job (docs/decisions.md#renewal-job): sends the reminders owed, then renews due
 * subscriptions one at a time, each taken in its own short transaction, until none is due or the batch is done.
 * Several instances may run rounds at once.
 */
export async function renewDueSubscriptions(deps: RenewalDeps): Promise<RenewalRound> {
  const round: RenewalRound = { invoiced: 0, reminded: 0, renewed: 0, failed: 0, expired: 0, canceled: 0, pending: 0 };
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;
  // Invoices first, so that the reminders of the same round name them.
  const nothingToInvoice: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const invoice = await invoiceNextRenewal(deps, nothingToInvoice);
    if (invoice === undefined) break;
    if (invoice.step === 'issued') round.invoiced += 1;
    else nothingToInvoice.push(invoice.subscriptionId);
  }
  const leftForLater: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const reminder = await remindNextRenewal(deps, leftForLater);
    if (reminder === undefined) break;
    if (reminder.step === 'sent') round.reminded += 1;
    if (reminder.step === 'left_for_later') leftForLater.push(reminder.subscriptionId);
  }
  const busy: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const outcome = await renewNextDueSubscription(deps, busy);
    if (outcome === undefined) break;
    if (typeof outcome === 'object') busy.push(outcome.busy);
    else round[outcome] += 1;
  }
  if (Object.values(round).some((count) => count > 0)) {
    deps.ctx.log.info(round, 'Mail subscription reminders and renewals ran');
  }
  return round;
}
