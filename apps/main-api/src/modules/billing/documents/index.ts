// Billing documents (receipts and invoices): the document as data, its two renderings, the particulars both copy
// with their gapless number, and how documents write dates and amounts.

export type { BillingDocument, DocumentFact, DocumentLine } from './document.js';
export { formatDay, formatDayAndTime } from './format.js';
export { DOCUMENT_PAGE_CSP, renderDocumentHtml } from './html.js';
export { lineDescription, seatsDetail } from './labels.js';
export { issueParticulars } from './particulars.js';
export { renderDocumentPdf } from './pdf.js';
