import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '@platform/http';
import { idempotency } from '@platform/idempotency';
import { auditContextOf } from '../../../shared/audit-context.js';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import type { SettlementContext } from '../payments/index.js';
import {
  ConfirmTransferBodySchema,
  ConfirmTransferResponseSchema,
  ListTransfersQuery,
  TransferListSchema,
  TransferParams,
} from './schemas.js';
import { confirmTransfer, listTransfers } from './service.js';

/**
 * The platform's finance staff's routes (docs/decisions.md#finance-role): the bank transfers of every organization,
 * and the confirmation of the money one brought in. For the role finance of the platform's own organization only
 * (`organization: 'platform'`: everyone else, its owners and admins included, is 403).
 */
export const financeRoutes: FastifyPluginAsyncTypebox<{ ctx: SettlementContext }> = async (app, { ctx }) => {
  const tags = ['finance'];
  const finance = { organization: 'platform', requires: 'transfers:confirm' } as const;
  await app.register(idempotency, {
    db: ctx.db,
    now: ctx.now,
    scopeOf: (request) => `user:${request.user.id}:finance`,
    onReplay: () => app.metrics.idempotentReplays.inc(),
  });

  app.get(
    '/v1/finance/payments',
    {
      config: finance,
      schema: {
        tags,
        summary: 'Bank transfers of every organization',
        description:
          'Payments by bank transfer, newest first, a page at a time (pass nextCursor as cursor): each with its ' +
          'organization, invoice, the reference its payer writes on the transfer, when it is due and when it ' +
          'expires, and everything finance recorded about it. `status=pending` gives the transfers still awaited; ' +
          '`reference` finds one by its payment reference or the reference on the bank statement.',
        security: bearerSecurity,
        querystring: ListTransfersQuery,
        response: { 200: ref(TransferListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { status, reference, limit, cursor } = request.query;
      return { success: true as const, data: await listTransfers(ctx.db, { status, reference, limit, cursor }) };
    },
  );

  app.post(
    '/v1/finance/payments/:reference/confirm',
    {
      // Only writes to the database: the answer is stored in the confirmation's transaction.
      config: { ...finance, idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Confirm the money a bank transfer brought in',
        description:
          "What the bank statement shows: the amount received and the bank's reference of the transfer. The exact " +
          'amount of the invoice completes the payment as any payment completes (a subscription bought starts, a ' +
          'top-up is credited, the receipt is issued, members are told): outcome applied. Another amount is ' +
          'recorded and left for staff to settle, never applied: outcome amount_mismatch, the payment stays pending ' +
          "(confirm the exact amount once it is complete). Both are in the platform organization's audit log. " +
          '404 for no such bank transfer; 409 for one already confirmed (confirmations at once apply once), expired ' +
          '(unconfirmed after 30 days), or a bank reference that already confirmed another transfer. A retry with ' +
          'the same Idempotency-Key answers the first confirmation.',
        security: bearerSecurity,
        params: TransferParams,
        body: ConfirmTransferBodySchema,
        response: { 200: ref(ConfirmTransferResponseSchema), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      confirmTransfer(
        {
          ctx,
          transaction: (work) =>
            request.idempotency.transaction(ctx.db, async (tx) => ({ statusCode: 200, body: await work(tx) })),
        },
        {
          userId: request.user.id,
          platformOrganizationId: request.organization.id,
          audit: auditContextOf(request),
        },
        request.params.reference,
        request.body,
      ),
  );
};
