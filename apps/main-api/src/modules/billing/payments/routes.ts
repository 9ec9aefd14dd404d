import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '@platform/errors';
import { errorResponses } from '@platform/http';
import { bearerSecurity } from '../../../route-schemas.js';
import { ref } from '../../../schema-ref.js';
import { isPaymentReference } from './reference.js';
import { findOrganizationPayment } from './repository.js';
import { PayBodySchema, PaymentReferenceParams, PaymentResponseSchema, PaymentStartedSchema } from './schemas.js';
import { type PaymentStartDeps, startPayment } from './start-payment.js';
import { toPaymentView } from './view.js';

export const PAYMENT_NOT_FOUND = 'Payment not found';

/** POST /v1/billing/pay and GET /v1/billing/payments/:reference, for the organization in X-Organization-Id. */
export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentStartDeps> = async (app, deps) => {
  const tags = ['billing'];

  app.post(
    '/v1/billing/pay',
    {
      // The provider is called: the answer is stored once sent, and a payment reference guards the rest.
      config: { organization: true, idempotency: 'response' },
      schema: {
        tags,
        summary: 'Start a payment',
        description:
          'card: returns the hosted checkoutUrl. mobile_money: sends an M-Pesa prompt to a Safaricom number. ' +
          'saved_method: charges a saved card or prompts a saved number. metadata.type mail_subscription buys a ' +
          'mailbox plan at the price the server computes (amount is ignored); otherwise the payment tops up the ' +
          "organization's wallet. Send Idempotency-Key so a retried request makes one payment.",
        security: bearerSecurity,
        body: PayBodySchema,
        response: { 200: ref(PaymentStartedSchema), ...errorResponses(400, 401, 402, 403, 404, 409, 422, 503) },
      },
    },
    async (request) => {
      const started = await startPayment(
        deps,
        { organizationId: request.organization.id, userId: request.user.id },
        request.body,
      );
      request.log.info({ reference: started.reference, organizationId: request.organization.id }, 'Payment started');
      return started;
    },
  );

  app.get(
    '/v1/billing/payments/:reference',
    {
      config: { organization: true },
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
      const { reference } = request.params;
      const payment = isPaymentReference(reference)
        ? await findOrganizationPayment(deps.ctx.db, request.organization.id, reference)
        : undefined;
      if (payment === undefined) throw notFound(PAYMENT_NOT_FOUND);
      return { success: true as const, data: toPaymentView(payment) };
    },
  );
};
