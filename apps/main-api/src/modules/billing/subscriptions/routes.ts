import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, SuccessMessage } from '@platform/http';
import { REPLAYED_HEADER } from '@platform/idempotency';
import { auditContextOf } from '../../../shared/audit-context.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { cancelSubscription, resumeCanceledSubscription } from './cancel.js';
import { upgradeSubscription } from './change-plan.js';
import { previewUpgrade } from './change-plan-price.js';
import {
  MailSubscriptionResponseSchema,
  MailSubscriptionUpdatedResponseSchema,
  UpgradeBodySchema,
  UpgradePreviewQuerySchema,
  UpgradePreviewResponseSchema,
} from './schemas.js';
import { type PaymentsAccess, subscriptionViewOf } from './service.js';

/**
 * The organization's mail subscription, the price of a change, the change itself (spec 4.8, 4.9), and cancel and
 * resume (docs/decisions.md#subscription-cancellation).
 */
export const subscriptionRoutes: FastifyPluginAsyncTypebox<PaymentsAccess> = async (app, payments) => {
  const tags = ['billing'];
  const { db } = payments.ctx;

  app.get(
    '/v1/billing/subscription',
    {
      config: { organization: true, requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's mail subscription",
        description:
          'Plan, seats, cycle, status and current period, the price of one period from the price list, the credit ' +
          'balance, whether it is set to cancel at the period end, and a downgrade scheduled for then. data is null ' +
          'when the organization never had a subscription.',
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
          'minus the credit balance. A downgrade (priced lower) is 0: it takes effect at the period end ' +
          '(takesEffect period_end) at newPrice. 409 without an active subscription; 400 when nothing would change.',
        security: bearerSecurity,
        querystring: UpgradePreviewQuerySchema,
        response: { 200: ref(UpgradePreviewResponseSchema), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { newPlan, newSeats, newCycle } = request.query;
      const next = { plan: newPlan, seats: newSeats, cycle: newCycle };
      return {
        success: true as const,
        data: await previewUpgrade(db, request.organization.id, next, payments.ctx.now()),
      };
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
          'a declined card is 402 and changes nothing. A downgrade (priced lower) is scheduled instead: the renewal at ' +
          'the period end applies it at its price, and nothing is charged or credited now; asking for the current terms ' +
          'cancels a scheduled downgrade, and a change applied now replaces it. 202 when ' +
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
        payments,
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

  const lifecycle = { organization: true, requires: 'billing:write', idempotency: 'transaction' } as const;

  app.post(
    '/v1/billing/subscription/cancel',
    {
      // Only writes locally: the flag, its audit event, the notifications and the stored answer commit together.
      config: lifecycle,
      schema: {
        tags,
        summary: 'Cancel the subscription at the end of its period',
        description:
          'The subscription keeps its plan until currentPeriodEnd and then ends as canceled; it is not charged again and ' +
          'nothing is refunded (a past_due one ends at its next retry instead of being charged). Answers the ' +
          'subscription with cancelAtPeriodEnd true. Asking again changes nothing and answers the same. 409 without a ' +
          'subscription or when it has already ended. A renewal already being charged when the cancel arrives still ' +
          'applies: the subscription then ends at the end of the new period. An unpaid renewal invoice (a renewal paid by ' +
          'bank transfer) is voided. No body. Send Idempotency-Key to replay a retry.',
        security: bearerSecurity,
        response: {
          200: ref(MailSubscriptionUpdatedResponseSchema),
          ...errorResponses(400, 401, 403, 409, 422),
        },
      },
    },
    async (request) =>
      request.idempotency.transaction(db, async (tx) => {
        const answer = await cancelSubscription(
          tx,
          payments.ctx,
          { organizationId: request.organization.id, audit: auditContextOf(request) },
          payments.ctx.now(),
        );
        request.log.info({ organizationId: request.organization.id }, 'Subscription set to cancel at the period end');
        return { statusCode: 200, body: { success: true as const, ...answer } };
      }),
  );

  app.post(
    '/v1/billing/subscription/resume',
    {
      config: lifecycle,
      schema: {
        tags,
        summary: 'Keep a subscription that is set to cancel',
        description:
          'Before it ends: clears cancelAtPeriodEnd, so the subscription renews at the period end as before (a ' +
          'scheduled change stays scheduled). Answers the subscription. 409 without a subscription, when it has ended, ' +
          'or when it is not set to cancel. No body. Send Idempotency-Key to replay a retry.',
        security: bearerSecurity,
        response: {
          200: ref(MailSubscriptionUpdatedResponseSchema),
          ...errorResponses(400, 401, 403, 409, 422),
        },
      },
    },
    async (request) =>
      request.idempotency.transaction(db, async (tx) => {
        const answer = await resumeCanceledSubscription(tx, {
          organizationId: request.organization.id,
          audit: auditContextOf(request),
        });
        request.log.info({ organizationId: request.organization.id }, 'Subscription resumed');
        return { statusCode: 200, body: { success: true as const, ...answer } };
      }),
  );
};
