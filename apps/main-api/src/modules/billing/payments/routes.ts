import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { REPLAYED_HEADER } from '@platform/idempotency';
import { auditContextOf } from '../../../shared/audit-context.js';
import { preferredMediaType } from '../../../shared/content-negotiation.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { listPayments, paymentExport } from './list-payments.js';
import { organizationPaymentView, paymentByReference } from './look-up-payment.js';
import { checkoutCompletePage } from './page.js';
import { paymentsCsv } from './payments-csv.js';
import {
  CheckoutCompleteQuery,
  ListPaymentsQuery,
  PayBodySchema,
  PaymentListSchema,
  PaymentReferenceParams,
  PaymentResponseSchema,
  PaymentStartedSchema,
} from './schemas.js';
import type { PaymentStartContext } from './start-context.js';
import { startPayment } from './start-payment.js';

const LIST_FORMS = ['application/json', 'text/csv'] as const;

/**
 * POST /v1/billing/pay, GET /v1/billing/payments (JSON pages or a CSV export) and GET /v1/billing/payments/:reference,
 * for the organization in X-Organization-Id.
 */
export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentStartContext> = async (app, context) => {
  const tags = ['billing'];

  app.post(
    '/v1/billing/pay',
    {
      // The provider is called: the answer is stored once sent, and a payment reference guards the rest.
      config: { organization: true, requires: 'billing:write', idempotency: 'response' },
      schema: {
        tags,
        summary: 'Start a payment',
        description:
          'card: returns the hosted checkoutUrl. mobile_money: sends an M-Pesa prompt to a Safaricom number. ' +
          'saved_method: charges a saved card or prompts a saved number. metadata.type mail_subscription buys a ' +
          'mailbox plan at the price the server computes (amount is ignored); otherwise the payment tops up the ' +
          "organization's wallet. Send Idempotency-Key so a retried request makes one payment: a retry after a 503 " +
          'whose payment is still being confirmed with the provider gets 409 idempotency_key_in_use with Retry-After, ' +
          'and once that payment has succeeded, its success (Idempotent-Replayed: true).',
        security: bearerSecurity,
        body: PayBodySchema,
        response: { 200: ref(PaymentStartedSchema), ...errorResponses(400, 401, 402, 403, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const started = await startPayment(
        context,
        {
          organizationId: request.organization.id,
          userId: request.user.id,
          idempotency: request.idempotency,
          audit: auditContextOf(request),
        },
        request.body,
      );
      if (started.replayed) {
        // The first request with this key was answered 503 while its payment was being confirmed; it has
        // succeeded since, so this retry gets the answer the first one would have had.
        reply.header(REPLAYED_HEADER, 'true');
        request.server.metrics.idempotentReplays.inc();
        request.log.info(
          { reference: started.answer.reference },
          'Answered a retry with the success of the payment its key started',
        );
        return started.answer;
      }
      request.log.info(
        { reference: started.answer.reference, organizationId: request.organization.id },
        'Payment started',
      );
      return started.answer;
    },
  );

  app.get(
    '/v1/billing/payments',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's payments (JSON pages or CSV)",
        description:
          "The organization's payments, newest first, each as GET /v1/billing/payments/:reference answers it (with " +
          'its receiptNumber once it succeeded), a page at a time: pass nextCursor as cursor for the next page. ' +
          'Filters: status, method, purpose, and from (inclusive) / to: a date is that day in Nairobi (UTC+3; a `to` ' +
          'day is included), a date-time with a time zone is that moment (`to` excluded); from must be before to, ' +
          "else 400. With `Accept: text/csv` the answer is every payment of the filter as CSV (after the cursor's " +
          'payment if one is given; limit does not apply), written as it is read, with a header row and a ' +
          'filename: RFC 4180, text quoted, text a ' +
          'spreadsheet would run as a formula (starting with =, +, -, @) prefixed with an apostrophe.',
        security: bearerSecurity,
        querystring: ListPaymentsQuery,
        response: {
          200: {
            description: 'A page of payments (JSON), or every matching payment as CSV with `Accept: text/csv`.',
            content: {
              'application/json': { schema: ref(PaymentListSchema) },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { status, method, purpose, from, to, limit, cursor } = request.query;
      const filter = { status, method, purpose, from, to };
      if (preferredMediaType(request.headers.accept, LIST_FORMS) === 'application/json') {
        const data = await listPayments(context.ctx.db, request.organization.id, { ...filter, limit, cursor });
        return { success: true as const, data };
      }
      const pages = await paymentExport(context.ctx.db, request.organization.id, { ...filter, cursor });
      const day = context.ctx.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payments-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(paymentsCsv(pages));
    },
  );

  app.get(
    '/v1/billing/payments/:reference',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: 'A payment and its outcome',
        description: "Only the organization's own payments; any other reference gives the same 404.",
        security: bearerSecurity,
        params: PaymentReferenceParams,
        response: { 200: ref(PaymentResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const data = await organizationPaymentView(context.ctx.db, request.organization.id, request.params.reference);
      return { success: true as const, data };
    },
  );
};

const CHECKOUT_COMPLETE_PATH = '/v1/billing/checkout/complete';

/**
 * The page the payer's browser lands on after the hosted card checkout, when no PAYMENT_RETURN_URL of the
 * customer's own app is configured. It shows only the outcome, never amounts or account details.
 */
export const checkoutCompleteRoutes: FastifyPluginAsyncTypebox<{
  db: Database;
  /** The dashboard's payment history, linked from the page when the dashboard is on. */
  dashboardPaymentsPath: string | undefined;
}> = async (app, { db, dashboardPaymentsPath }) => {
  app.get(
    CHECKOUT_COMPLETE_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['billing'],
        summary: 'Page shown after the hosted card checkout',
        querystring: CheckoutCompleteQuery,
      },
    },
    async (request, reply) => {
      const reference = request.query.reference ?? request.query.trxref ?? '';
      const page = checkoutCompletePage(await paymentByReference(db, reference), dashboardPaymentsPath);
      return reply
        .code(page.status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(page.html);
    },
  );
};
