import type { Payment } from '@platform/db';
import { askProvider } from './ask-provider.js';
import type { CardProvider } from './provider-port.js';
import { findPayment, recordProviderAcceptance } from './repository.js';
import { RETIREMENT_SOURCE, retiredAtOf } from './retired-organizations.js';
import { type SettlementContext, settleFoundPayment, settlePayment } from './settle-payment.js';

export interface SavedCardToCharge {
  authorizationCode: string;
  /** The email the card's authorization belongs to (the provider requires it). */
  email: string;
}

export interface SavedCardCharged {
  /** The payment as it now stands: succeeded, failed, or still pending. */
  payment: Payment;
  /**
   * False when the provider's answer never came (a timeout, a broken connection, a 5xx): the charge may have
   * been made, so the payment stays pending until the reconciliation job (or Paystack's webhook) confirms it.
   */
  answered: boolean;
  /** Why no answer came, when none did. */
  error?: unknown;
}

/**
 * Charges a saved card for a payment already recorded as pending, outside any transaction, and settles the
 * payment with the provider's answer (the success or failure hooks run in that settlement). A provider that
 * refuses, or certainly did not get the request, ends the payment and throws 402 or 503 (askProvider).
 */
export async function chargeSavedCard(
  ctx: SettlementContext,
  provider: CardProvider,
  payment: Payment,
  card: SavedCardToCharge,
  options: { confirmAfterMs: number },
): Promise<SavedCardCharged> {
  // The card provider's transaction reference is ours: a charge whose answer is lost can still be verified.
  const reply = await askProvider(
    ctx,
    payment,
    () =>
      provider.chargeSavedCard({
        reference: payment.reference,
        amount: payment.amount,
        email: card.email,
        authorizationCode: card.authorizationCode,
      }),
    { providerReference: payment.reference, confirmAfterMs: options.confirmAfterMs },
  );
  if (reply.answered) {
    await recordProviderAcceptance(ctx.db, payment, { providerReference: payment.reference, payload: null }, ctx.now());
    await settlePayment(ctx, { reference: payment.reference, provider: provider.name }, reply.value);
  }
  const now = (await findPayment(ctx.db, { reference: payment.reference })) ?? payment;
  return reply.answered ? { payment: now, answered: true } : { payment: now, answered: false, error: reply.error };
}

/**
 * chargeSavedCard for callers that only need where the payment stands (the renewal job): pending covers both
 * a provider still processing and an unknown outcome; the reconciliation job settles either. A charge whose
 * organization was retired since it was claimed is not sent: it is cancelled instead
 * (docs/decisions.md#retired-organizations-take-no-money).
 */
export async function chargeSavedCardPayment(
  ctx: SettlementContext,
  provider: CardProvider,
  payment: Payment,
  card: SavedCardToCharge,
): Promise<Payment> {
  const withdrawn = await withdrawIfRetired(ctx, payment);
  if (withdrawn !== undefined) return withdrawn;
  // The first check was scheduled when the payment was recorded (checkDelayOf): keep the same delay.
  const confirmAfterMs = Math.max(0, payment.nextCheckAt.getTime() - payment.createdAt.getTime());
  return (await chargeSavedCard(ctx, provider, payment, card, { confirmAfterMs })).payment;
}

/**
 * The last look before a charge the job claimed goes to the provider: when its organization was retired since, the
 * payment is cancelled (its change was ended by the retirement) and returned; undefined when the charge may go. A
 * retirement committing after this look meets a charge already sent: its success is recorded to refund.
 */
async function withdrawIfRetired(ctx: SettlementContext, payment: Payment): Promise<Payment | undefined> {
  return ctx.db.transaction(async (tx) => {
    if ((await retiredAtOf(tx, payment.organizationId)) === null) return undefined;
    const reason = 'The organization was closed before the card was charged: nothing was charged';
    const settled = await settleFoundPayment(
      tx,
      ctx,
      payment,
      { status: 'cancelled', source: RETIREMENT_SOURCE, reason },
      ctx.now(),
    );
    return settled.kind === 'duplicate' || settled.kind === 'unmatched' ? payment : settled.payment;
  });
}
