import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paymentMethodKinds, paymentPurposes, paymentStatuses } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import { sendPage } from '../../shared/html-forms.js';
import { listPayments, type PaymentFilter, paymentExport, paymentsCsv } from '../billing/index.js';
import { type DashboardBillingOptions, organizationOf } from './billing-forms.js';
import { given, listPageQuery, queryText } from './list-page-query.js';
import { listProblemOf } from './list-problems.js';
import { PAYMENTS_CSV_PATH, type PaymentFilters, paymentsPage, paymentsQuery } from './pages/billing-payments.js';
import { frameOf } from './pages/layout.js';
import { BILLING_PAYMENTS_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The payment history and its CSV (docs/decisions.md#dashboard-pages), over the service of `GET /v1/billing/payments`:
// its filters, its cursor pages, and its export with the API's own CSV writer (RFC 4180 quoting and the formula
// guard), so the file is the one `Accept: text/csv` gives.

/** A page of the history: as many rows as the API's largest page. */
export const PAYMENTS_PAGE_SIZE = 50;

const HistoryQuery = listPageQuery({
  status: queryText(32),
  method: queryText(32),
  purpose: queryText(32),
  from: queryText(40),
  to: queryText(40),
});

/** The filters as the list takes them; undefined when a choice is not one of its lists. */
function filterOf(filters: PaymentFilters): PaymentFilter | undefined {
  const status = paymentStatuses.find((each) => each === filters.status);
  const method = paymentMethodKinds.find((each) => each === filters.method);
  const purpose = paymentPurposes.find((each) => each === filters.purpose);
  if (
    (filters.status !== undefined && status === undefined) ||
    (filters.method !== undefined && method === undefined) ||
    (filters.purpose !== undefined && purpose === undefined)
  ) {
    return undefined;
  }
  return { status, method, purpose, from: filters.from, to: filters.to };
}

export const dashboardBillingPaymentRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (
  app,
  { db, now, guard },
) => {
  const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
  const filtersFrom = (query: PaymentFilters): PaymentFilters => ({
    status: given(query.status),
    method: given(query.method),
    purpose: given(query.purpose),
    from: given(query.from),
    to: given(query.to),
  });

  app.get(
    BILLING_PAYMENTS_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Billing: the payment history, filtered, a page at a time (HTML)'),
        querystring: HistoryQuery,
      },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const { locale } = context;
      const filters = filtersFrom(request.query);
      const cursor = given(request.query.cursor);
      const view = { locale, signedIn: frameOf(context), filters, payments: [], nextPage: null, laterPage: false };
      const filter = filterOf(filters);
      const refuse = (problem: string) => sendPage(reply, paymentsPage({ ...view, problem }), 400);
      if (filter === undefined) return refuse(text(locale, 'dashboard.billing.payments.badFilter'));
      try {
        const page = await listPayments(db, organizationOf(request).id, {
          ...filter,
          limit: PAYMENTS_PAGE_SIZE,
          cursor,
        });
        const nextPage =
          page.nextCursor === null
            ? null
            : `${BILLING_PAYMENTS_PATH}${paymentsQuery(filters, { cursor: page.nextCursor })}`;
        return sendPage(
          reply,
          paymentsPage({ ...view, payments: page.payments, nextPage, laterPage: cursor !== undefined }),
        );
      } catch (error) {
        // A period or a cursor the list does not take: said on the page, with the filters to correct.
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        return refuse(listProblemOf(request.dashboard.locale, error));
      }
    },
  );

  app.get(
    PAYMENTS_CSV_PATH,
    {
      config: read,
      preHandler: guard,
      schema: { ...documented('Billing: the filtered payment history as CSV'), querystring: HistoryQuery },
    },
    async (request, reply) => {
      const filter = filterOf(filtersFrom(request.query));
      // A filter the list does not take is the history page saying so (its link has the same query).
      if (filter === undefined) {
        return reply
          .code(303)
          .header('location', `${BILLING_PAYMENTS_PATH}${paymentsQuery(filtersFrom(request.query))}`)
          .send();
      }
      const pages = await paymentExport(db, organizationOf(request).id, { ...filter, cursor: undefined });
      const day = now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payments-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(paymentsCsv(pages));
    },
  );
};
