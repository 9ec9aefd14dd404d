import { createHash } from 'node:crypto';
import { escapeHtml, htmlDocument } from '@platform/http';
import type { BillingDocument, DocumentFact } from './document.js';
import { formatAmount, formatDay, vatLabel } from './format.js';

// A billing document as a page: server-rendered, no script, one style sheet allowed by its hash alone, readable by a
// screen reader (headings, a table with a caption and header cells) and printable on A4 as it is.

const STYLE = `
  body { font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
  h1 { font-size: 1.6rem; margin: 0 0 0.25rem; }
  h2 { font-size: 1rem; margin: 1.5rem 0 0.5rem; }
  .parties { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0 2rem; }
  .parties p { margin: 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { color: #4a4a4a; } dd { margin: 0; overflow-wrap: anywhere; }
  table { width: 100%; border-collapse: collapse; margin-top: 1.5rem; }
  caption { text-align: left; font-weight: 700; padding-bottom: 0.5rem; }
  th, td { text-align: left; padding: 0.4rem 0.5rem 0.4rem 0; border-bottom: 1px solid #d0d0d0; vertical-align: top; }
  .amount { text-align: right; padding-right: 0; }
  td.amount { white-space: nowrap; }
  .details { list-style: none; margin: 0.25rem 0 0; padding: 0; color: #4a4a4a; }
  tfoot th { font-weight: 400; }
  tfoot tr.total th, tfoot tr.total td { font-weight: 700; border-bottom: 2px solid #1a1a1a; }
  .notes { color: #4a4a4a; font-size: 0.9rem; margin-top: 1.5rem; }
  @page { size: A4; margin: 16mm; }
  @media print { body { margin: 0; max-width: none; padding: 0; } }
`;

/**
 * The page's Content-Security-Policy: nothing may load or run, and the only style is the page's own, allowed by its
 * hash (no 'unsafe-inline').
 */
export const DOCUMENT_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The document as a complete HTML page (every value escaped). */
export function renderDocumentHtml(document: BillingDocument): string {
  const { seller, buyer, amounts } = document;
  const heading = `${document.title} ${document.number}`;
  const lines = document.lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.description)}${
          line.details.length === 0
            ? ''
            : `<ul class="details">${line.details.map((detail) => `<li>${escapeHtml(detail)}</li>`).join('')}</ul>`
        }</td><td class="amount">${escapeHtml(formatAmount(line.amount))}</td></tr>`,
    )
    .join('\n');
  const body = `
<h1>${escapeHtml(heading)}</h1>
${factList([
  { label: `${document.title} number`, value: document.number },
  { label: 'Date issued', value: formatDay(document.issuedAt) },
  ...(document.headerFacts ?? []),
])}
<div class="parties">
<section aria-labelledby="seller">
<h2 id="seller">From</h2>
<p>${escapeHtml(seller.name)}</p>
<p>${escapeHtml(seller.address)}</p>
<p>KRA PIN: ${escapeHtml(seller.kraPin)}</p>
</section>
<section aria-labelledby="buyer">
<h2 id="buyer">Billed to</h2>
<p>${escapeHtml(buyer.name)}</p>
<p>KRA PIN: ${escapeHtml(buyer.kraPin ?? 'not given')}</p>
</section>
</div>
<table>
<caption>${escapeHtml(document.linesCaption)}</caption>
<thead><tr><th scope="col">Description</th><th scope="col" class="amount">Amount (KES, VAT included)</th></tr></thead>
<tbody>
${lines}
</tbody>
<tfoot>
<tr><th scope="row">Net amount (excluding VAT)</th><td class="amount">${escapeHtml(formatAmount(amounts.net))}</td></tr>
<tr><th scope="row">${escapeHtml(vatLabel(amounts.ratePercent))}</th><td class="amount">${escapeHtml(formatAmount(amounts.vat))}</td></tr>
<tr class="total"><th scope="row">Total (VAT included)</th><td class="amount">${escapeHtml(formatAmount(amounts.total))}</td></tr>
</tfoot>
</table>
<section aria-labelledby="facts">
<h2 id="facts">${escapeHtml(document.facts.heading)}</h2>
${factList(document.facts.items)}
</section>
<div class="notes">${document.notes.map((note) => `<p>${escapeHtml(note)}</p>`).join('')}</div>`;
  return htmlDocument({ title: `${heading} - ${seller.name}`, styles: STYLE, body, lang: 'en' });
}

function factList(facts: DocumentFact[]): string {
  const items = facts.map((fact) => `<dt>${escapeHtml(fact.label)}</dt><dd>${escapeHtml(fact.value)}</dd>`);
  return `<dl>${items.join('')}</dl>`;
}
