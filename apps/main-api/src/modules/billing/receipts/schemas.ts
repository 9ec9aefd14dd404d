import { Type } from '@sinclair/typebox';

export const ReceiptParams = Type.Object({
  reference: Type.String({ maxLength: 64, description: 'The payment reference, PAY-<uuid>.' }),
});

/** The two forms of a receipt, in OpenAPI: the page (the default) and the PDF. */
export const receiptContent = {
  description: 'The receipt: an HTML page by default, a PDF with `Accept: application/pdf`.',
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};
