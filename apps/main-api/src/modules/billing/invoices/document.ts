import type { Invoice, PaymentPurpose } from '@platform/db';
import { formatKes } from '@platform/pricing';
import type { BillingDocument, DocumentFact, DocumentLine } from '../documents/index.js';
import { formatDay } from '../documents/index.js';
import type { InvoiceWithPayment } from './repository.js';

// A stored invoice as the billing document both renderings draw: what is billed, how to pay it, and where it stands
// now (awaiting payment, overdue, paid with its receipt, or expired: docs/decisions.md#invoices).

const PURPOSES: Record<PaymentPurpose, string> = {
  wallet_topup: 'Verification wallet top-up',
  mail_subscription: 'Mail subscription',
  mail_subscription_change: 'Mail subscription change',
  mail_subscription_renewal: 'Mail subscription renewal',
};

const CYCLE_LENGTHS = { monthly: 'One month', yearly: 'One year' } as const;

const seatCount = new Intl.NumberFormat('en-KE');

export function invoiceDocument(found: InvoiceWithPayment, now: Date): BillingDocument {
  const { invoice } = found;
  const reference = invoice.transferReference;
  const amount = formatKes(invoice.total);
  const howToPay: DocumentFact[] = [
    { label: 'Method', value: 'Bank transfer' },
    { label: 'Bank', value: invoice.bankName },
    { label: 'Account name', value: invoice.bankAccountName },
    { label: 'Account number', value: invoice.bankAccountNumber },
    { label: 'Branch', value: invoice.bankBranch },
    { label: 'Reference to write', value: reference },
    { label: 'Amount to transfer', value: amount },
    { label: 'Payment reference', value: invoice.paymentReference },
  ];
  return {
    title: 'Invoice',
    number: invoice.number,
    issuedAt: invoice.issuedAt,
    headerFacts: [
      { label: 'Payable by', value: formatDay(invoice.dueAt) },
      { label: 'Status', value: statusOf(found, now) },
    ],
    seller: { name: invoice.sellerName, address: invoice.sellerAddress, kraPin: invoice.sellerKraPin },
    buyer: { name: invoice.buyerName, kraPin: invoice.buyerKraPin },
    linesCaption: 'What is billed',
    lines: [lineOf(invoice)],
    amounts: { total: invoice.total, net: invoice.net, vat: invoice.vat, ratePercent: invoice.vatRatePercent },
    facts: { heading: 'How to pay', items: howToPay },
    notes: [
      ...stateNotes(found, amount),
      `Amounts are in Kenya shillings (KES) and include VAT at ${invoice.vatRatePercent}%.`,
      ...(invoice.sandbox ? ['Sandbox bank details: there is no such account; transfer no money to it.'] : []),
    ],
  };
}

/** Where the invoice stands: its payment's status, and for one still awaited whether it is past its due date. */
function statusOf(found: InvoiceWithPayment, now: Date): string {
  const { invoice, completedAt } = found;
  switch (found.status) {
    case 'pending':
      return now > invoice.dueAt
        ? `Overdue: the transfer is still accepted until ${formatDay(invoice.expiresAt)}`
        : 'Awaiting payment';
    case 'succeeded':
      return `Paid on ${formatDay(completedAt ?? invoice.issuedAt)}${found.receiptNumber === null ? '' : `, receipt ${found.receiptNumber}`}`;
    case 'expired':
      return `Expired on ${formatDay(completedAt ?? invoice.expiresAt)}: no longer payable`;
    case 'failed':
    case 'cancelled':
      return 'Cancelled: no longer payable';
    case 'refund_due':
      return 'Cancelled: the account was closed, and the money received is refunded';
  }
}

function stateNotes(found: InvoiceWithPayment, amount: string): string[] {
  const { invoice } = found;
  switch (found.status) {
    case 'pending':
      return [
        `${payableBy(invoice)}: transfer exactly ${amount} to the account above and ` +
          `write the reference ${invoice.transferReference} on the transfer, so that it is matched to this invoice.`,
        `A transfer not confirmed by ${formatDay(invoice.expiresAt)} (30 days) expires with this invoice, which can ` +
          'no longer be paid then.',
      ];
    case 'succeeded':
      return [`Paid in full${found.receiptNumber === null ? '' : `: receipt ${found.receiptNumber}`}. Nothing is due.`];
    case 'expired':
      return [
        'This invoice expired: the transfer was not confirmed within 30 days of its issue, and it can no longer be ' +
          'paid. Transfer no money for it; start a new payment instead.',
      ];
    case 'failed':
    case 'cancelled':
      return ['This invoice was cancelled and can no longer be paid. Transfer no money for it.'];
    case 'refund_due':
      return [
        'This invoice was cancelled when the account was closed: the money received for it is refunded. Transfer no ' +
          'more money for it.',
      ];
  }
}

/** A renewal's invoice is due on the renewal date (docs/decisions.md#renewal-invoices), a purchase's in 14 days. */
function payableBy(invoice: Invoice): string {
  return invoice.purpose === 'mail_subscription_renewal'
    ? `Payable by the renewal on ${formatDay(invoice.dueAt)}`
    : `Payable within 14 days, by ${formatDay(invoice.dueAt)}`;
}

/** A purchase's period starts when its transfer is confirmed; a renewal's where the current period ends. */
function periodStartOf(invoice: Invoice): string {
  return invoice.purpose === 'mail_subscription_renewal'
    ? `from the renewal on ${formatDay(invoice.dueAt)}`
    : 'from the day the transfer is confirmed';
}

/** What is billed: the purpose, and for a subscription its plan, seats, cycle and when its period starts. */
function lineOf(invoice: Invoice): DocumentLine {
  const { plan, seats, billingCycle } = invoice;
  const details: string[] = [];
  let description = PURPOSES[invoice.purpose];
  if (plan !== null && seats !== null && billingCycle !== null) {
    description = `${description}: ${plan} plan`;
    details.push(`${seatCount.format(seats)} ${seats === 1 ? 'seat' : 'seats'}, billed ${billingCycle}`);
    details.push(`${CYCLE_LENGTHS[billingCycle]} ${periodStartOf(invoice)}`);
  } else if (invoice.purpose === 'wallet_topup') {
    details.push('Credited to the live wallet when the transfer is confirmed');
  }
  return { description, details, amount: invoice.total };
}
