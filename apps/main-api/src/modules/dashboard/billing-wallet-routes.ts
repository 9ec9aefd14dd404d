import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { invoicePageOf, startPayment } from '../billing/index.js';
import { allows } from '../organizations/index.js';
import {
  listOrganizationWallets,
  MAX_TEST_TOP_UP,
  organizationWalletTransactions,
  topUpTestWallet,
} from '../wallets/index.js';
import {
  BillingPageQuery,
  checkoutPolicy,
  type DashboardBillingOptions,
  fieldsOf,
  formIdempotency,
  formKeyOf,
  formProblemOf,
  liveTopUpsLocked,
  newFormKey,
  organizationOf,
  requesterOf,
  sendOnce,
  wholeKesOf,
  withNotice,
} from './billing-forms.js';
import { listProblemOf } from './list-problems.js';
import { billingNotice } from './pages/billing-notices.js';
import {
  LIVE_TOP_UP_PATH,
  TEST_TOP_UP_PATH,
  type TopUpForm,
  topUpMethods,
  type WalletView,
  walletPage,
} from './pages/billing-wallet.js';
import { frameOf } from './pages/layout.js';
import { BILLING_WALLET_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The Wallet page and its top-ups (docs/decisions.md#dashboard-pages), over the services of
// `/v1/organizations/:id/wallets*`, `POST /v1/organizations/:id/wallets/test/top-ups` and `POST /v1/billing/pay`.
// Each top-up form carries a key: the test top-up is the ledger's once per reference, a payment the payment
// services' once per key, so a form posted twice tops up once.

/** A page of the statement: the API's largest. */
const STATEMENT_PAGE_SIZE = 100;

export const dashboardBillingWalletRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (
  app,
  { db, now, billing, testWalletCredit, guard, cardCheckoutOrigin },
) => {
  const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
  const form = (requires: 'billing:write' | 'wallet:test_top_up') =>
    ({ public: true, idempotency: 'none', dashboardPage: { requires } }) as const;
  // A card top-up's answer sends the browser to the card checkout: the page's form must be allowed to go there.
  const livePolicy = checkoutPolicy(cardCheckoutOrigin);

  /** The page, with the forms as given (a refused one keeps its values) or new ones. */
  async function showWallet(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { status?: number; problem?: string; cursor?: string; testForm?: TopUpForm; liveForm?: TopUpForm } = {},
  ) {
    const context = request.dashboard;
    const { locale, environment } = context;
    const organization = organizationOf(request);
    const [wallets, statement] = await Promise.all([
      listOrganizationWallets(db, organization.id, { testCredit: testWalletCredit }),
      organizationWalletTransactions(
        db,
        { organizationId: organization.id, environment },
        { limit: STATEMENT_PAGE_SIZE, cursor: options.cursor },
      ),
    ]);
    const mayPay = allows(organization.role, 'billing:write');
    const view: WalletView = {
      locale,
      signedIn: frameOf(context),
      environment,
      wallets,
      transactions: statement.transactions,
      nextPage:
        statement.nextCursor === null
          ? null
          : `${BILLING_WALLET_PATH}?cursor=${encodeURIComponent(statement.nextCursor)}`,
      laterPage: options.cursor !== undefined,
      notice: billingNotice(locale, (request.query as { notice?: string }).notice),
      problem: options.problem,
      testTopUp:
        environment === 'test' && allows(organization.role, 'wallet:test_top_up')
          ? (options.testForm ?? { key: newFormKey(), amount: '' })
          : undefined,
      liveTopUp:
        environment === 'live' && mayPay
          ? {
              form: options.liveForm ?? { key: newFormKey(), amount: '', method: 'card' },
              locked: await liveTopUpsLocked(db, organization.id),
            }
          : undefined,
    };
    const policy = view.liveTopUp === undefined ? undefined : livePolicy;
    return sendPage(reply, walletPage(view), options.status ?? 200, policy);
  }

  app.get(
    BILLING_WALLET_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Billing: the wallets, the statement and the top-ups (HTML)'),
        querystring: BillingPageQuery,
      },
    },
    async (request, reply) => {
      const cursor = request.query.cursor;
      try {
        return await showWallet(request, reply, cursor === undefined ? {} : { cursor });
      } catch (error) {
        // A cursor the statement did not give: said on the page, with its first page.
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        return showWallet(request, reply, { status: 400, problem: listProblemOf(request.dashboard.locale, error) });
      }
    },
  );

  app.post(
    TEST_TOP_UP_PATH,
    {
      config: form('wallet:test_top_up'),
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Tops up the test wallet, free (form)'), body: FormBody },
    },
    async (request, reply) => {
      const { locale } = request.dashboard;
      const fields = fieldsOf(request.body);
      const key = formKeyOf(fields);
      const amount = wholeKesOf(fields['amount'], MAX_TEST_TOP_UP);
      const testForm = { key: key ?? newFormKey(), amount: fields['amount'] ?? '' };
      if (amount === undefined || key === undefined) {
        const problem = text(locale, 'dashboard.billing.wallet.badAmount', {
          max: MAX_TEST_TOP_UP.toLocaleString('en-KE'),
        });
        return showWallet(request, reply, { status: 400, problem, testForm });
      }
      const requester = requesterOf(request);
      const { applied } = await db.transaction((tx) =>
        topUpTestWallet(tx, {
          organizationId: requester.organizationId,
          amount,
          audit: requester.audit,
          testCredit: testWalletCredit,
          key,
        }),
      );
      if (applied) request.log.info({ organizationId: requester.organizationId, amount }, 'Test wallet topped up');
      return withNotice(reply, BILLING_WALLET_PATH, 'topped_up');
    },
  );

  app.post(
    LIVE_TOP_UP_PATH,
    {
      config: form('billing:write'),
      preHandler: [app.csrfProtection, guard],
      schema: {
        ...documented('Tops up the live wallet: a payment by card, M-Pesa or bank transfer (form)'),
        body: FormBody,
      },
    },
    async (request, reply) => {
      const { locale } = request.dashboard;
      const fields = fieldsOf(request.body);
      const key = formKeyOf(fields);
      const method = topUpMethods.find((each) => each === fields['method']);
      const liveForm: TopUpForm = {
        key: key ?? newFormKey(),
        amount: fields['amount'] ?? '',
        method: method ?? 'card',
        phone: fields['phone'] ?? '',
      };
      const refuse = (problem: string, status = 400) => showWallet(request, reply, { status, problem, liveForm });
      const amount = wholeKesOf(fields['amount'], Number.MAX_SAFE_INTEGER);
      if (amount === undefined || method === undefined || key === undefined) {
        return refuse(text(locale, 'dashboard.billing.wallet.badTopUp'));
      }
      if (method === 'mobile_money' && (fields['phone'] ?? '') === '') {
        return refuse(text(locale, 'dashboard.billing.wallet.needsPhone'));
      }
      const idempotency = formIdempotency(request, key, fields);
      try {
        const location = await sendOnce(db, idempotency, now(), async () => {
          const { answer } = await startPayment(
            billing,
            { ...requesterOf(request), idempotency },
            { method, amount, ...(method === 'mobile_money' ? { phone: fields['phone'] ?? '' } : {}) },
          );
          request.log.info(
            { reference: answer.reference, organizationId: organizationOf(request).id },
            'Top-up started',
          );
          if (answer.checkoutUrl !== undefined) return answer.checkoutUrl;
          if (method === 'bank_transfer') return invoicePageOf(answer.reference);
          return `${BILLING_WALLET_PATH}?notice=prompted`;
        });
        return redirectTo(reply, location);
      } catch (error) {
        // What the pay service refuses (a limit, a number of another operator, locked, being confirmed): said on the
        // page with the form kept. A 503 (the provider did not answer) is the error page: the payment may go on.
        if (!isAppError(error) || error.statusCode >= 500) throw error;
        return refuse(formProblemOf(locale, error), error.statusCode);
      }
    },
  );
};
