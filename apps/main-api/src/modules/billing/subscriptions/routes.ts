import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, SuccessMessage } from '@platform/http';
import { REPLAYED_HEADER } from '@platform/idempotency';
import { auditContextOf } from '../../../shared/audit-context.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import {
  MailSubscriptionResponseSchema,
  UpgradeBodySchema,
  UpgradePreviewQuerySchema,
  UpgradePreviewResponseSchema,
} from './schemas.js';
import { previewUpgrade, type SubscriptionDeps, subscriptionViewOf, upgradeSubscription } from './service.js';

/** The organization's mail subscription, the price of a change, and the change itself (spec 4.8, 4.9). */
export const subscriptionRoutes: FastifyPluginAsyncTypebox<SubscriptionDeps> = async (app, deps) => {
  const tags = ['billing'];
  const { db } = deps.ctx;

  app.get(
    '/v1/billing/subscription',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's mail subscription",
        description:
          'Plan, seats, cycle, status and current period, the price of one period from the price list, and the credit ' +
          'balance. data is null when the organization never had a subscription.',
        security: bearerSecurity,
        response: { 200: ref(MailSubscriptionResponseSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await subscriptionViewOf(db, request.organization.id) }),
  );

  app.get(
    '/v1/billing/upgrade/preview',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: 'What a change of plan, seats or cycle costs today',
        description:
          'amountDueToday is what POST /v1/billing/upgrade charges to a saved card if made the same day (UTC): the ' +
          'prorated price of the change for the rest of the current period (a new cycle starts a new period today), ' +
          'minus the credit balance. 409 without an active subscription; 400 when nothing would change.',
        security: bearerSecurity,
        querystring: UpgradePreviewQuerySchema,
        response: { 200: ref(UpgradePreviewResponseSchema), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { newPlan, newSeats, newCycle } = request.query;
      const next = { plan: newPlan, seats: newSeats, cycle: newCycle };
      return { success: true as const, data: await previewUpgrade(db, request.organization.id, next, deps.ctx.now()) };
    },
  );

  app.post(
    '/v1/billing/upgrade',
    {
      // The card provider is called: the answer is stored once sent, and the change's claim guards the rest.
      config: { organization: true, requires: 'billing:write', idempotency: 'response' },
      schema: {
        tags,
        summary: 'Change plan, seats or billing cycle now',
        description:
          'Recomputes the preview; when amountDueToday is above 0 it is charged at once to paymentMethodId, a saved ' +
          'card of the organization (M-Pesa numbers: 400). On success the new plan, seats and cycle apply immediately; ' +
          'a declined card is 402 and changes nothing. A downgrade adds its unused value to the credit balance. 202 when ' +
          'the card provider has not confirmed the charge yet (or its answer never came); that answer is not stored for replay: ' +
          'a retry with the same Idempotency-Key charges nothing and answers from where the change stands then ' +
          '(202 while it is being confirmed, 200 once applied). Send Idempotency-Key so a retry charges once.',
        security: bearerSecurity,
        body: UpgradeBodySchema,
        response: {
          200: ref(SuccessMessage),
          202: ref(SuccessMessage),
          ...errorResponses(400, 401, 402, 403, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const { newPlan, newSeats, newCycle, paymentMethodId } = request.body;
      const result = await upgradeSubscription(
        deps,
        { organizationId: request.organization.id, userId: request.user.id, audit: auditContextOf(request) },
        { plan: newPlan, seats: newSeats, cycle: newCycle },
        paymentMethodId,
        request.idempotency,
      );
      request.log.info(
        { organizationId: request.organization.id, statusCode: result.statusCode },
        'Subscription change requested',
      );
      if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
      return reply.code(result.statusCode).send({ success: true as const, message: result.message });
    },
  );
};
