import type { PaymentChannel, PaymentProvider, PaymentPurpose, Receipt } from '@platform/db';
import type { BillingDocument, DocumentFact, DocumentLine } from '../documents/index.js';
import { formatDay, formatDayAndTime } from '../documents/index.js';

// A stored receipt as the billing document both renderings draw: the wording of what was bought and how it was paid.

const PURPOSES: Record<PaymentPurpose, string> = {
  wallet_topup: 'Verification wallet top-up',
  mail_subscription: 'Mail subscription',
  mail_subscription_change: 'Mail subscription change',
  mail_subscription_renewal: 'Mail subscription renewal',
};

const CHANNELS: Record<PaymentChannel, string> = {
  card: 'Card',
  mobile_money: 'M-Pesa',
  bank_transfer: 'Bank transfer',
};

/** Who took the money, after the channel; a bank transfer is the bank's, whose reference follows. */
const PROVIDERS: Record<PaymentProvider, string | null> = {
  paystack: 'Paystack',
  daraja: 'Safaricom M-Pesa',
  sandbox: 'Sandbox',
  bank_transfer: null,
};

/** How paid: `Card (Paystack)`, `Bank transfer`. */
function paidBy(receipt: Receipt): string {
  const provider = PROVIDERS[receipt.provider];
  return provider === null ? CHANNELS[receipt.channel] : `${CHANNELS[receipt.channel]} (${provider})`;
}

/**
 * The provider's reference of the payment, when it is not ours: the M-Pesa receipt number the payer has by SMS, when
 * the receipt has one (docs/decisions.md#m-pesa-receipt-number), in place of the prompt's CheckoutRequestID,
 * which the payer never sees; a bank transfer's bank reference; or the provider's reference, as receipts issued
 * without an M-Pesa receipt number show it.
 */
function providerFacts(receipt: Receipt): DocumentFact[] {
  if (receipt.mpesaReceiptNumber !== null) return [{ label: 'M-Pesa receipt', value: receipt.mpesaReceiptNumber }];
  if (receipt.providerReference === null || receipt.providerReference === receipt.paymentReference) return [];
  const label = receipt.channel === 'bank_transfer' ? 'Bank reference' : 'Provider reference';
  return [{ label, value: receipt.providerReference }];
}

const seatCount = new Intl.NumberFormat('en-KE');

export function receiptDocument(receipt: Receipt): BillingDocument {
  const payment: DocumentFact[] = [
    { label: 'Payment reference', value: receipt.paymentReference },
    { label: 'Paid on', value: formatDayAndTime(receipt.paidAt) },
    { label: 'Paid by', value: paidBy(receipt) },
    ...providerFacts(receipt),
  ];
  return {
    title: 'Receipt',
    number: receipt.number,
    issuedAt: receipt.issuedAt,
    seller: { name: receipt.sellerName, address: receipt.sellerAddress, kraPin: receipt.sellerKraPin },
    buyer: { name: receipt.buyerName, kraPin: receipt.buyerKraPin },
    linesCaption: 'What was paid for',
    lines: [lineOf(receipt)],
    amounts: { total: receipt.total, net: receipt.net, vat: receipt.vat, ratePercent: receipt.vatRatePercent },
    facts: { heading: 'Payment', items: payment },
    notes: [
      `Paid in full: nothing is due. Amounts are in Kenya shillings (KES) and include VAT at ${receipt.vatRatePercent}%.`,
      ...(receipt.provider === 'sandbox' ? ['A sandbox payment: no real money moved.'] : []),
    ],
  };
}

/** What was bought: the purpose, and for a subscription its plan, seats, cycle and period (or where the money went). */
function lineOf(receipt: Receipt): DocumentLine {
  const { plan, seats, billingCycle, periodStart, periodEnd, note } = receipt;
  const details: string[] = [];
  let description = PURPOSES[receipt.purpose];
  if (plan !== null && seats !== null && billingCycle !== null) {
    description = `${description}: ${plan} plan`;
    details.push(`${seatCount.format(seats)} ${seats === 1 ? 'seat' : 'seats'}, billed ${billingCycle}`);
  } else if (receipt.purpose === 'wallet_topup') {
    details.push('Credited to the live wallet');
  }
  if (periodStart !== null && periodEnd !== null) {
    details.push(`Period: ${formatDay(periodStart)} to ${formatDay(periodEnd)}`);
  }
  if (note !== null) details.push(note);
  return { description, details, amount: receipt.total };
}
