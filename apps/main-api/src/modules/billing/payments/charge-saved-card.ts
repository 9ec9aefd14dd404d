import type { Payment } from '@platform/db';
import type { CardProvider } from '../providers/ports.js';
import { askProvider } from './ask-provider.js';
import { findPayment, recordProviderAcceptance } from './repository.js';
import { settlePayment, type SettlementContext } from './settle.js';

export interface SavedCardToCharge {
  authorizationCode: string;
  /** The email the card's authorization belongs to (the provider requires it). */
  email: string;
}

/**
 * Charges a saved card for a payment already recorded as pending, outside any transaction, and settles the
 * payment with the provider's answer (the success or failure hooks run in that settlement). Returns the
 * payment as it then stands: succeeded, failed, or still pending when the provider has no final answer yet.
 * A provider that refuses or cannot be reached ends the payment and throws 402 or 503 (askProvider).
 */
export async function chargeSavedCardPayment(
  ctx: SettlementContext,
  provider: CardProvider,
  payment: Payment,
  card: SavedCardToCharge,
): Promise<Payment> {
  const outcome = await askProvider(ctx, payment, () =>
    provider.chargeSavedCard({
      reference: payment.reference,
      amount: payment.amount,
      email: card.email,
      authorizationCode: card.authorizationCode,
    }),
  );
  await recordProviderAcceptance(ctx.db, payment, { providerReference: payment.reference, payload: null }, ctx.now());
  await settlePayment(ctx, { reference: payment.reference, provider: provider.name }, outcome);
  return (await findPayment(ctx.db, { reference: payment.reference })) ?? payment;
}
