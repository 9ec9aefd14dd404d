// Billing documents (receipts and invoices): the document as data, its two renderings, the gapless numbers of a
// series, and how documents write dates and amounts.

export type { BillingDocument, DocumentFact, DocumentLine } from './document.js';
export { formatDay, formatDayAndTime } from './format.js';
export { DOCUMENT_PAGE_CSP, renderDocumentHtml } from './html.js';
export { formatDocumentNumber } from './numbering.js';
export { renderDocumentPdf } from './pdf.js';
export { findBuyer, takeNextNumber } from './repository.js';
