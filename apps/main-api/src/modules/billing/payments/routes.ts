import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { REPLAYED_HEADER } from '@platform/idempotency';
import { auditContextOf } from '../../../shared/audit-context.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { checkoutCompletePage } from './page.js';
import {
  CheckoutCompleteQuery,
  PayBodySchema,
  PaymentReferenceParams,
  PaymentResponseSchema,
  PaymentStartedSchema,
} from './schemas.js';
import { organizationPaymentView, type PaymentStartDeps, paymentByReference, startPayment } from './service.js';

/** POST /v1/billing/pay and GET /v1/billing/payments/:reference, for the organization in X-Organization-Id. */
export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentStartDeps> = async (app, deps) => {
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
        deps,
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
      const data = await organizationPaymentView(deps.ctx.db, request.organization.id, request.params.reference);
      return { success: true as const, data };
    },
  );
};

const CHECKOUT_COMPLETE_PATH = '/v1/billing/checkout/complete';

/**
 * The page the payer's browser lands on after the hosted card checkout, when no PAYMENT_RETURN_URL of the
 * customer's own app is configured. It shows only the outcome, never amounts or account details.
 */
export const checkoutCompleteRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
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
      const page = checkoutCompletePage(await paymentByReference(db, reference));
      return reply
        .code(page.status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(page.html);
    },
  );
};
