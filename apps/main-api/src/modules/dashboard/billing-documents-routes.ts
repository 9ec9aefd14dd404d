import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { preferredMediaType } from '../../shared/content-negotiation.js';
import {
  type BillingDocument,
  DOCUMENT_PAGE_CSP,
  paymentInvoice,
  paymentReceipt,
  renderDocumentHtml,
  renderDocumentPdf,
} from '../billing/index.js';
import { type DashboardBillingOptions, organizationOf } from './billing-forms.js';
import { BILLING_PAYMENTS_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// A payment's receipt and a bank transfer's invoice opened in a browser (docs/decisions.md#dashboard-pages): the same
// documents as `GET /v1/billing/payments/:reference/receipt` and `/invoice`, from the same services, signed in by the
// dashboard's cookie instead of a bearer token, so the links of notifications and emails open. Another
// organization's reference, an unknown one and a payment without the document are the same 404 page.

const DocumentParams = Type.Object({ reference: Type.String({ maxLength: 64 }) });
const DocumentQuery = Type.Object(
  { lang: Type.Optional(Type.String({ maxLength: 8 })), org: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
const FORMS = ['text/html', 'application/pdf'] as const;

export const dashboardBillingDocumentRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (
  app,
  { db, now, guard },
) => {
  const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;

  /** The document as the API sends it: HTML by default, a PDF when the browser asks for one. */
  async function send(reply: FastifyReply, accept: string | undefined, kind: string, document: BillingDocument) {
    // A document names the organization and its payment: kept by no cache, sent to no other site.
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    if (preferredMediaType(accept, FORMS) === 'application/pdf') {
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${kind}-${document.number}.pdf"`)
        .send(await renderDocumentPdf(document));
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCUMENT_PAGE_CSP)
      .send(renderDocumentHtml(document));
  }

  app.get(
    `${BILLING_PAYMENTS_PATH}/:reference/receipt`,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented("A successful payment's receipt (HTML or PDF)"),
        params: DocumentParams,
        querystring: DocumentQuery,
      },
    },
    async (request, reply) => {
      const document = await paymentReceipt(db, organizationOf(request).id, request.params.reference);
      return send(reply, request.headers.accept, 'receipt', document);
    },
  );

  app.get(
    `${BILLING_PAYMENTS_PATH}/:reference/invoice`,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented("A bank transfer's invoice (HTML or PDF)"),
        params: DocumentParams,
        querystring: DocumentQuery,
      },
    },
    async (request, reply) => {
      const document = await paymentInvoice(db, organizationOf(request).id, request.params.reference, now());
      return send(reply, request.headers.accept, 'invoice', document);
    },
  );
};
