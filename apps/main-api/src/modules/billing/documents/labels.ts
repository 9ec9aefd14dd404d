import type { BillingCycle, PaymentPurpose } from '@platform/db';
import { text } from '@platform/templates';
import type { BillingDocument, DocumentFact } from './document.js';
import { formatDay } from './format.js';

// The words both renderings of a billing document (html.tsx, pdf.ts) and both kinds of document (receipts,
// invoices) share, from the catalog (docs/decisions.md#html-templates): English only, as the documents are.

/** `Receipt RCT-000001`. */
export function headingOf(document: BillingDocument): string {
  return text('en', 'billingDocument.heading', { title: document.title, number: document.number });
}

/** The facts under the heading: the number, the issue date, and the document's own (an invoice's due date). */
export function headerFactsOf(document: BillingDocument): DocumentFact[] {
  return [
    { label: text('en', 'billingDocument.number', { title: document.title }), value: document.number },
    { label: text('en', 'billingDocument.issued'), value: formatDay(document.issuedAt) },
    ...(document.headerFacts ?? []),
  ];
}

/** `KRA PIN: P051234567Q`, or that the buyer gave none. */
export function kraPinLine(pin: string | null): string {
  return text('en', 'billingDocument.kraPin', { pin: pin ?? text('en', 'billingDocument.kraPinNotGiven') });
}

/** The VAT line's label: `VAT 16%`. */
export function vatLabel(ratePercent: number): string {
  return text('en', 'billingDocument.vat', { rate: ratePercent });
}

const seatCount = new Intl.NumberFormat('en-KE');

/** What a line pays for: the purpose, and a subscription's plan (`Mail subscription: business plan`). */
export function lineDescription(purpose: PaymentPurpose, plan: string | null): string {
  const name = text('en', `payment.purpose.${purpose}`);
  return plan === null ? name : text('en', 'billingDocument.line.plan', { purpose: name, plan });
}

/** A subscription's seats and cycle: `1 seat, billed monthly`. */
export function seatsDetail(seats: number, cycle: BillingCycle): string {
  const key = seats === 1 ? 'billingDocument.line.seat' : 'billingDocument.line.seats';
  return text('en', key, { seats: seatCount.format(seats), cycle: text('en', `payment.cycle.${cycle}`) });
}
