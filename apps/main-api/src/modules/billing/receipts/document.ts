import type { Receipt } from '@platform/db';
import { text } from '@platform/templates';
import type { BillingDocument, DocumentFact, DocumentLine } from '../documents/index.js';
import { formatDay, formatDayAndTime, lineDescription, seatsDetail } from '../documents/index.js';

// A stored receipt as the billing document both renderings draw: the wording of what was bought and how it was paid,
// from the catalog (docs/decisions.md#html-templates).

/** How paid: `Card (Paystack)`, `Bank transfer`; a bank transfer is the bank's, whose reference follows. */
function paidBy(receipt: Receipt): string {
  const channel = text('en', `payment.channel.${receipt.channel}`);
  if (receipt.provider === 'bank_transfer') return channel;
  return text('en', 'receipt.paidThrough', { channel, provider: text('en', `payment.provider.${receipt.provider}`) });
}

/**
 * The provider's reference of the payment, when it is not ours: the M-Pesa receipt number the payer has by SMS, when
 * the receipt has one (docs/decisions.md#m-pesa-receipt-number), in place of the prompt's CheckoutRequestID,
 * which the payer never sees; a bank transfer's bank reference; or the provider's reference, as receipts issued
 * without an M-Pesa receipt number show it.
 */
function providerFacts(receipt: Receipt): DocumentFact[] {
  if (receipt.mpesaReceiptNumber !== null) {
    return [{ label: text('en', 'receipt.mpesaReceipt'), value: receipt.mpesaReceiptNumber }];
  }
  if (receipt.providerReference === null || receipt.providerReference === receipt.paymentReference) return [];
  const label = text('en', receipt.channel === 'bank_transfer' ? 'receipt.bankReference' : 'receipt.providerReference');
  return [{ label, value: receipt.providerReference }];
}

export function receiptDocument(receipt: Receipt): BillingDocument {
  const payment: DocumentFact[] = [
    { label: text('en', 'receipt.paymentReference'), value: receipt.paymentReference },
    { label: text('en', 'receipt.paidOn'), value: formatDayAndTime(receipt.paidAt) },
    { label: text('en', 'receipt.paidBy'), value: paidBy(receipt) },
    ...providerFacts(receipt),
  ];
  return {
    title: text('en', 'billingDocument.receipt'),
    number: receipt.number,
    issuedAt: receipt.issuedAt,
    seller: { name: receipt.sellerName, address: receipt.sellerAddress, kraPin: receipt.sellerKraPin },
    buyer: { name: receipt.buyerName, kraPin: receipt.buyerKraPin },
    linesCaption: text('en', 'receipt.lines'),
    lines: [lineOf(receipt)],
    amounts: { total: receipt.total, net: receipt.net, vat: receipt.vat, ratePercent: receipt.vatRatePercent },
    facts: { heading: text('en', 'receipt.payment'), items: payment },
    notes: [
      text('en', 'receipt.paidInFull', { rate: receipt.vatRatePercent }),
      ...(receipt.provider === 'sandbox' ? [text('en', 'receipt.sandbox')] : []),
    ],
  };
}

/** What was bought: the purpose, and for a subscription its plan, seats, cycle and period (or where the money went). */
function lineOf(receipt: Receipt): DocumentLine {
  const { plan, seats, billingCycle, periodStart, periodEnd, note } = receipt;
  const details: string[] = [];
  let description = lineDescription(receipt.purpose, null);
  if (plan !== null && seats !== null && billingCycle !== null) {
    description = lineDescription(receipt.purpose, plan);
    details.push(seatsDetail(seats, billingCycle));
  } else if (receipt.purpose === 'wallet_topup') {
    details.push(text('en', 'receipt.walletCredited'));
  }
  if (periodStart !== null && periodEnd !== null) {
    details.push(text('en', 'receipt.period', { start: formatDay(periodStart), end: formatDay(periodEnd) }));
  }
  if (note !== null) details.push(note);
  return { description, details, amount: receipt.total };
}
