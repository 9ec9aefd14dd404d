import { Type } from '@sinclair/typebox';

export const InvoiceParams = Type.Object({
  reference: Type.String({ maxLength: 64, description: 'The payment reference, PAY-<uuid>.' }),
});

/** The two forms of an invoice, in OpenAPI: the page (the default) and the PDF. */
export const invoiceContent = {
  description: 'The invoice: an HTML page by default, a PDF with `Accept: application/pdf`.',
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};
