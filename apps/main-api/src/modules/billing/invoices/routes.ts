import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { preferredMediaType } from '../../../shared/content-negotiation.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { DOCUMENT_PAGE_CSP, renderDocumentHtml, renderDocumentPdf } from '../documents/index.js';
import { InvoiceParams, invoiceContent } from './schemas.js';
import { paymentInvoice } from './service.js';

const FORMS = ['text/html', 'application/pdf'] as const;

/** GET /v1/billing/payments/:reference/invoice, for the organization in X-Organization-Id. */
export const invoiceRoutes: FastifyPluginAsyncTypebox<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/v1/billing/payments/:reference/invoice',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags: ['billing'],
        summary: "A bank transfer's invoice (HTML or PDF)",
        description:
          'The invoice issued when a payment by bank transfer started: its number (INV-000001, gapless), the seller ' +
          'and the buyer with their KRA PINs, what is billed, the amount with the VAT in it (16%, net + VAT = total), ' +
          'the bank account to pay into and the reference to write on the transfer, payable within 14 days. Its ' +
          'status is where the payment stands now: awaiting payment, overdue, paid (with the receipt number) or ' +
          'expired (unconfirmed after 30 days: no longer payable). An HTML page (printable, no script) by default; a ' +
          'PDF with `Accept: application/pdf`. Only bank transfers have one: 404 for any other payment, as for ' +
          "another organization's payment or an unknown reference.",
        security: bearerSecurity,
        params: InvoiceParams,
        response: { 200: invoiceContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const document = await paymentInvoice(db, request.organization.id, request.params.reference, now());
      // An invoice names the organization and the seller's bank account: kept by no cache, sent to no other site.
      reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
      if (preferredMediaType(request.headers.accept, FORMS) === 'application/pdf') {
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="invoice-${document.number}.pdf"`)
          .send(await renderDocumentPdf(document));
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', DOCUMENT_PAGE_CSP)
        .send(renderDocumentHtml(document));
    },
  );
};
