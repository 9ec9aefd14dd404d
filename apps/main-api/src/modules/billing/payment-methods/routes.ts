import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses, SuccessMessage } from '@platform/http';
import { auditContextOf } from '../../../shared/audit-context.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { PaymentMethodIdParams, PaymentMethodListSchema } from './schemas.js';
import { listPaymentMethods, removePaymentMethod } from './service.js';

const PAYMENT_METHOD_REMOVED = 'Payment method removed';

/** The organization's saved cards and M-Pesa numbers: list and remove. */
export const paymentMethodRoutes: FastifyPluginAsyncTypebox<{ db: Database; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const tags = ['billing'];

  app.get(
    '/v1/billing/payment-methods',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's saved payment methods",
        description:
          'Cards saved from checkouts with a reusable authorization, and M-Pesa numbers that paid. Newest first.',
        security: bearerSecurity,
        response: { 200: ref(PaymentMethodListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { paymentMethods: await listPaymentMethods(db, request.organization.id) },
    }),
  );

  app.delete(
    '/v1/billing/payment-methods/:id',
    {
      // Only writes locally: the removal and the stored answer commit together.
      config: { organization: true, requires: 'billing:write', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Remove a saved payment method',
        description:
          'It can no longer be charged; past payments keep their record. Removing it again succeeds. Another ' +
          "organization's method and an unknown id give the same 404.",
        security: bearerSecurity,
        params: PaymentMethodIdParams,
        response: { 200: ref(SuccessMessage), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      request.idempotency.transaction(db, async (tx) => {
        await removePaymentMethod(tx, request.organization.id, request.params.id, now(), auditContextOf(request));
        return { statusCode: 200, body: { success: true as const, message: PAYMENT_METHOD_REMOVED } };
      }),
  );
};
