/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { cspHashOf, HtmlPage, renderPage, say, text, unescapedLiteral } from '@platform/templates';
import type { BillingDocument, DocumentFact } from './document.js';
import { formatAmount } from './format.js';
import { headerFactsOf, headingOf, kraPinLine, vatLabel } from './labels.js';

// A billing document as a page: server-rendered, no script, one style sheet allowed by its hash alone, readable by a
// screen reader (headings, a table with a caption and header cells) and printable on A4 as it is.

const STYLE = unescapedLiteral`
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
  `style-src ${cspHashOf(STYLE)}`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The document as a complete HTML page (every value escaped by the template layer). */
export function renderDocumentHtml(document: BillingDocument): string {
  const { seller, buyer, amounts } = document;
  const title = text('en', 'billingDocument.pageTitle', {
    title: document.title,
    number: document.number,
    seller: seller.name,
  });
  return renderPage(
    <HtmlPage title={title} styles={STYLE} lang="en">
      <h1>{headingOf(document)}</h1>
      <FactList facts={headerFactsOf(document)} />
      <div class="parties">
        <section aria-labelledby="seller">
          <h2 id="seller">{say('en', 'billingDocument.from')}</h2>
          <p>{seller.name}</p>
          <p>{seller.address}</p>
          <p>{kraPinLine(seller.kraPin)}</p>
        </section>
        <section aria-labelledby="buyer">
          <h2 id="buyer">{say('en', 'billingDocument.billedTo')}</h2>
          <p>{buyer.name}</p>
          <p>{kraPinLine(buyer.kraPin)}</p>
        </section>
      </div>
      <table>
        <caption>{document.linesCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{say('en', 'billingDocument.description')}</th>
            <th scope="col" class="amount">
              {say('en', 'billingDocument.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {document.lines.map((line) => (
            <tr>
              <td>
                {line.description}
                {line.details.length === 0 ? null : (
                  <ul class="details">
                    {line.details.map((detail) => (
                      <li>{detail}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td class="amount">{formatAmount(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{say('en', 'billingDocument.net')}</th>
            <td class="amount">{formatAmount(amounts.net)}</td>
          </tr>
          <tr>
            <th scope="row">{vatLabel(amounts.ratePercent)}</th>
            <td class="amount">{formatAmount(amounts.vat)}</td>
          </tr>
          <tr class="total">
            <th scope="row">{say('en', 'billingDocument.total')}</th>
            <td class="amount">{formatAmount(amounts.total)}</td>
          </tr>
        </tfoot>
      </table>
      <section aria-labelledby="facts">
        <h2 id="facts">{document.facts.heading}</h2>
        <FactList facts={document.facts.items} />
      </section>
      <div class="notes">
        {document.notes.map((note) => (
          <p>{note}</p>
        ))}
      </div>
    </HtmlPage>,
  );
}

function FactList({ facts }: { facts: DocumentFact[] }) {
  return (
    <dl>
      {facts.map((fact) => (
        <>
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </>
      ))}
    </dl>
  );
}
