import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isUuid } from '@platform/db';
import { notFound } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import { FormBody, sendPage } from '../../shared/html-forms.js';
import { listPaymentMethods, PAYMENT_METHOD_NOT_FOUND, removePaymentMethod } from '../billing/index.js';
import { allows } from '../organizations/index.js';
import {
  BillingPageQuery,
  checkoutPolicy,
  type DashboardBillingOptions,
  liveTopUpsLocked,
  newFormKey,
  organizationOf,
  requesterOf,
  withNotice,
} from './billing-forms.js';
import { methodsPage } from './pages/billing-methods.js';
import { billingNotice } from './pages/billing-notices.js';
import { frameOf } from './pages/layout.js';
import { BILLING_METHODS_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The payment methods page and the removal of one (docs/decisions.md#dashboard-pages), over the services of
// `GET /v1/billing/payment-methods` and `DELETE /v1/billing/payment-methods/:id`. Adding one is a live top-up paid
// with it (the Wallet page's form): a method is saved when it pays.

const MethodParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const dashboardBillingMethodRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (
  app,
  { db, now, guard, cardCheckoutOrigin },
) => {
  const addPolicy = checkoutPolicy(cardCheckoutOrigin);

  app.get(
    BILLING_METHODS_PATH,
    {
      config: { public: true, dashboardPage: { requires: 'organization:read' } },
      preHandler: guard,
      schema: { ...documented('Billing: the saved payment methods (HTML)'), querystring: BillingPageQuery },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const organization = organizationOf(request);
      const mayChange = allows(organization.role, 'billing:write');
      const add =
        mayChange && context.environment === 'live'
          ? { cardKey: newFormKey(), mpesaKey: newFormKey(), locked: await liveTopUpsLocked(db, organization.id) }
          : undefined;
      const page = methodsPage({
        locale: context.locale,
        signedIn: frameOf(context),
        methods: await listPaymentMethods(db, organization.id),
        mayChange,
        add,
        notice: billingNotice(context.locale, request.query.notice),
      });
      return sendPage(reply, page, 200, add === undefined || add.locked ? undefined : addPolicy);
    },
  );

  app.post(
    `${BILLING_METHODS_PATH}/:id/remove`,
    {
      config: { public: true, idempotency: 'none', dashboardPage: { requires: 'billing:write' } },
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Removes a saved payment method (form)'), params: MethodParams, body: FormBody },
    },
    async (request, reply) => {
      // An id that is not a UUID names no method: the same 404 page as an unknown one or another organization's.
      if (!isUuid(request.params.id)) throw notFound(PAYMENT_METHOD_NOT_FOUND);
      const requester = requesterOf(request);
      // Removing it again succeeds and records nothing, as the API's DELETE.
      await db.transaction((tx) =>
        removePaymentMethod(tx, requester.organizationId, request.params.id, now(), requester.audit),
      );
      return withNotice(reply, BILLING_METHODS_PATH, 'removed');
    },
  );
};
