import type { BankTransferConfirmation } from '@platform/db';

/**
 * What a transfer's records brought in that was not applied: every record but the one that applied it (partial
 * amounts, amounts of another amount recorded before they added up, money for a retired organization). What the next
 * record adds to (docs/decisions.md#split-bank-transfers).
 */
export function unappliedAmountOf(confirmations: readonly BankTransferConfirmation[]): number {
  return confirmations
    .filter((confirmation) => confirmation.outcome !== 'applied')
    .reduce((sum, confirmation) => sum + confirmation.amountReceived, 0);
}
