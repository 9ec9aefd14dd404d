import type { Invoice } from '@platform/db';
import { formatKes } from '@platform/pricing';
import { text } from '@platform/templates';
import type { BillingDocument, DocumentFact, DocumentLine } from '../documents/index.js';
import { formatDay, lineDescription, seatsDetail } from '../documents/index.js';
import type { InvoiceWithPayment } from './repository.js';

// A stored invoice as the billing document both renderings draw: what is billed, how to pay it, and where it stands
// now (awaiting payment, overdue, paid with its receipt, or expired: docs/decisions.md#invoices). Its words come from
// the catalog (docs/decisions.md#html-templates).

export function invoiceDocument(found: InvoiceWithPayment, now: Date): BillingDocument {
  const { invoice } = found;
  const reference = invoice.transferReference;
  const amount = formatKes(invoice.total);
  const howToPay: DocumentFact[] = [
    { label: text('en', 'invoice.method'), value: text('en', 'payment.channel.bank_transfer') },
    { label: text('en', 'invoice.bank'), value: invoice.bankName },
    { label: text('en', 'invoice.accountName'), value: invoice.bankAccountName },
    { label: text('en', 'invoice.accountNumber'), value: invoice.bankAccountNumber },
    { label: text('en', 'invoice.branch'), value: invoice.bankBranch },
    { label: text('en', 'invoice.referenceToWrite'), value: reference },
    { label: text('en', 'invoice.amountToTransfer'), value: amount },
    { label: text('en', 'invoice.paymentReference'), value: invoice.paymentReference },
  ];
  return {
    title: text('en', 'billingDocument.invoice'),
    number: invoice.number,
    issuedAt: invoice.issuedAt,
    headerFacts: [
      { label: text('en', 'invoice.payableBy'), value: formatDay(invoice.dueAt) },
      { label: text('en', 'invoice.status'), value: statusOf(found, now) },
    ],
    seller: { name: invoice.sellerName, address: invoice.sellerAddress, kraPin: invoice.sellerKraPin },
    buyer: { name: invoice.buyerName, kraPin: invoice.buyerKraPin },
    linesCaption: text('en', 'invoice.lines'),
    lines: [lineOf(invoice)],
    amounts: { total: invoice.total, net: invoice.net, vat: invoice.vat, ratePercent: invoice.vatRatePercent },
    facts: { heading: text('en', 'invoice.howToPay'), items: howToPay },
    notes: [
      ...stateNotes(found, amount),
      text('en', 'invoice.note.amounts', { rate: invoice.vatRatePercent }),
      ...(invoice.sandbox ? [text('en', 'invoice.note.sandbox')] : []),
    ],
  };
}

/** Where the invoice stands: its payment's status, and for one still awaited whether it is past its due date. */
function statusOf(found: InvoiceWithPayment, now: Date): string {
  const { invoice, completedAt, receiptNumber } = found;
  switch (found.status) {
    case 'pending':
      return now > invoice.dueAt
        ? text('en', 'invoice.status.overdue', { expires: formatDay(invoice.expiresAt) })
        : text('en', 'invoice.status.awaiting');
    case 'succeeded': {
      const date = formatDay(completedAt ?? invoice.issuedAt);
      return receiptNumber === null
        ? text('en', 'invoice.status.paid', { date })
        : text('en', 'invoice.status.paidWithReceipt', { date, receipt: receiptNumber });
    }
    case 'expired':
      return text('en', 'invoice.status.expired', { date: formatDay(completedAt ?? invoice.expiresAt) });
    case 'failed':
    case 'cancelled':
      return text('en', 'invoice.status.cancelled');
    case 'refund_due':
      return text('en', 'invoice.status.refund_due');
  }
}

function stateNotes(found: InvoiceWithPayment, amount: string): string[] {
  const { invoice, receiptNumber } = found;
  switch (found.status) {
    case 'pending':
      return [
        text('en', 'invoice.note.transfer', {
          payable: payableBy(invoice),
          amount,
          reference: invoice.transferReference,
        }),
        text('en', 'invoice.note.expiry', { date: formatDay(invoice.expiresAt) }),
      ];
    case 'succeeded':
      return [
        receiptNumber === null
          ? text('en', 'invoice.note.paid')
          : text('en', 'invoice.note.paidWithReceipt', { receipt: receiptNumber }),
      ];
    case 'expired':
      return [text('en', 'invoice.note.expired')];
    case 'failed':
    case 'cancelled':
      return [text('en', 'invoice.note.cancelled')];
    case 'refund_due':
      return [text('en', 'invoice.note.refund_due')];
  }
}

/** A renewal's invoice is due on the renewal date (docs/decisions.md#renewal-invoices), a purchase's in 14 days. */
function payableBy(invoice: Invoice): string {
  const date = formatDay(invoice.dueAt);
  return invoice.purpose === 'mail_subscription_renewal'
    ? text('en', 'invoice.payableByRenewal', { date })
    : text('en', 'invoice.payableWithin', { date });
}

/** What is billed: the purpose, and for a subscription its plan, seats, cycle and when its period starts. */
function lineOf(invoice: Invoice): DocumentLine {
  const { plan, seats, billingCycle } = invoice;
  const details: string[] = [];
  let description = lineDescription(invoice.purpose, null);
  if (plan !== null && seats !== null && billingCycle !== null) {
    description = lineDescription(invoice.purpose, plan);
    details.push(seatsDetail(seats, billingCycle));
    // A purchase's period starts when its transfer is confirmed; a renewal's where the current period ends.
    const length = text('en', `payment.cycleLength.${billingCycle}`);
    details.push(
      invoice.purpose === 'mail_subscription_renewal'
        ? text('en', 'invoice.periodFromRenewal', { length, date: formatDay(invoice.dueAt) })
        : text('en', 'invoice.periodFromTransfer', { length }),
    );
  } else if (invoice.purpose === 'wallet_topup') {
    details.push(text('en', 'invoice.walletCredit'));
  }
  return { description, details, amount: invoice.total };
}
