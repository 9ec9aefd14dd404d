import type { PaymentChannel } from '@platform/db';
import { invalidFields, validationError } from '@platform/errors';
import { formatKes } from '@platform/pricing';

const CHANNEL_NAMES: Record<PaymentChannel, string> = {
  card: 'card',
  mobile_money: 'M-Pesa',
  bank_transfer: 'bank transfer',
};

/**
 * The amount must fit the method's limit (MAX_AMOUNT_CARD, MAX_AMOUNT_MOBILE_MONEY, MAX_AMOUNT_BANK_TRANSFER). A card
 * or M-Pesa payment above its limit that a bank transfer may pay is told so (docs/decisions.md#bank-transfers).
 */
export function checkAmountLimit(
  amount: number,
  channel: PaymentChannel,
  limits: Record<PaymentChannel, number>,
  isSubscription: boolean,
): void {
  const limit = limits[channel];
  if (amount <= limit) return;
  const byTransfer =
    channel !== 'bank_transfer' && amount <= limits.bank_transfer
      ? '; pay it by bank transfer (method bank_transfer) instead'
      : '';
  // Amounts as every other message and document writes them: KES 1,320,000.
  if (isSubscription) {
    const message =
      `The price of this subscription (${formatKes(amount)}) is above the ${formatKes(limit)} limit of ` +
      `${CHANNEL_NAMES[channel]} payments${byTransfer}`;
    throw validationError(message, [{ path: '/metadata', message }]);
  }
  throw invalidFields([
    {
      path: '/amount',
      message: `must be at most ${formatKes(limit)} for ${CHANNEL_NAMES[channel]} payments${byTransfer}`,
    },
  ]);
}
