import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { preferredMediaType } from '../../../shared/content-negotiation.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { DOCUMENT_PAGE_CSP, renderDocumentHtml, renderDocumentPdf } from '../documents/index.js';
import { ReceiptParams, receiptContent } from './schemas.js';
import { paymentReceipt } from './service.js';

const FORMS = ['text/html', 'application/pdf'] as const;

/** GET /v1/billing/payments/:reference/receipt, for the organization in X-Organization-Id. */
export const receiptRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/v1/billing/payments/:reference/receipt',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags: ['billing'],
        summary: "A successful payment's receipt (HTML or PDF)",
        description:
          'The receipt issued when the payment succeeded: its number (RCT-000001, gapless), the seller and the buyer ' +
          'with their KRA PINs, what was bought (plan, seats, cycle and period, or a wallet top-up), the amount with ' +
          'the VAT in it (16%, net + VAT = total), how it was paid and when. An HTML page (printable, no script) by ' +
          'default; a PDF with `Accept: application/pdf`. A payment that has not succeeded has no receipt: 404, as ' +
          "for another organization's payment or an unknown reference.",
        security: bearerSecurity,
        params: ReceiptParams,
        response: { 200: receiptContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const document = await paymentReceipt(db, request.organization.id, request.params.reference);
      // A receipt names the organization and its payment: kept by no cache, sent to no other site.
      reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
      if (preferredMediaType(request.headers.accept, FORMS) === 'application/pdf') {
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="receipt-${document.number}.pdf"`)
          .send(await renderDocumentPdf(document));
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', DOCUMENT_PAGE_CSP)
        .send(renderDocumentHtml(document));
    },
  );
};
