import type { VatBreakdown } from '@platform/pricing';

// A billing document as both renderers (html.ts, pdf.ts) draw it: a receipt or an invoice. The document is plain
// data, built from the stored record by the module that issues it, so what it shows never depends on how it is
// rendered.

/** The seller: named in full, as the law asks of a tax document. */
interface DocumentSeller {
  name: string;
  address: string;
  kraPin: string;
}

/** The buyer: the organization, with its KRA PIN when it gave one. */
interface DocumentBuyer {
  name: string;
  kraPin: string | null;
}

/** One thing paid for: what it is, the facts that go with it (seats, period), and its amount, VAT included. */
export interface DocumentLine {
  description: string;
  details: string[];
  amount: number;
}

/** A labelled fact, such as `Payment reference` `PAY-...`. */
export interface DocumentFact {
  label: string;
  value: string;
}

export interface BillingDocument {
  /** `Receipt` or `Invoice`. */
  title: string;
  /** `RCT-000001`, `INV-000001`. */
  number: string;
  issuedAt: Date;
  /** Facts shown under the number and the issue date: an invoice's due date and status. */
  headerFacts?: DocumentFact[];
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  /** What the lines' table is called: `What was paid for` (a receipt), `What is billed` (an invoice). */
  linesCaption: string;
  lines: DocumentLine[];
  /** The total and the VAT in it. */
  amounts: VatBreakdown;
  /** The facts of the payment (a receipt) or its terms (an invoice), under `heading`. */
  facts: { heading: string; items: DocumentFact[] };
  /** Closing sentences. */
  notes: string[];
}
