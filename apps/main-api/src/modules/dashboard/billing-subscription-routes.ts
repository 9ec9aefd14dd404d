import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError } from '@platform/errors';
import { isBillingCycle, isPlan, MAX_SEATS, quote, type SubscriptionTerms } from '@platform/pricing';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import {
  cancelSubscription,
  listPaymentMethods,
  previewUpgrade,
  resumeCanceledSubscription,
  startPayment,
  subscriptionViewOf,
  upgradeSubscription,
} from '../billing/index.js';
import { allows } from '../organizations/index.js';
import {
  BillingPageQuery,
  checkoutPolicy,
  type DashboardBillingOptions,
  fieldsOf,
  formIdempotency,
  formKeyOf,
  formProblemOf,
  newFormKey,
  organizationOf,
  requesterOf,
  sendOnce,
  withNotice,
} from './billing-forms.js';
import { billingNotice } from './pages/billing-notices.js';
import { type PlanChoice, type PlanPageView, planPage } from './pages/billing-plan.js';
import { CANCEL_PATH, RESUME_PATH, subscriptionPage } from './pages/billing-subscription.js';
import { frameOf } from './pages/layout.js';
import { BILLING_PATH, BILLING_PLAN_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The Subscription page, its cancel and resume, and choosing a plan (docs/decisions.md#dashboard-pages), over the
// services of `GET /v1/billing/subscription`, `POST /v1/billing/subscription/cancel|resume`,
// `GET /v1/billing/upgrade/preview`, `POST /v1/billing/upgrade` and, for a purchase, `POST /v1/billing/pay`.

const PlanQuery = Type.Object(
  {
    plan: Type.Optional(Type.String({ maxLength: 16 })),
    seats: Type.Optional(Type.String({ maxLength: 16 })),
    cycle: Type.Optional(Type.String({ maxLength: 16 })),
    lang: Type.Optional(Type.String({ maxLength: 8 })),
    org: Type.Optional(Type.String({ maxLength: 64 })),
    env: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);

/** The terms of a choice, when it names a plan, 1 to MAX_SEATS whole seats and a cycle. */
function termsOf(choice: PlanChoice): SubscriptionTerms | undefined {
  const seats = /^\d{1,7}$/.test(choice.seats) ? Number(choice.seats) : Number.NaN;
  if (!isPlan(choice.plan) || !isBillingCycle(choice.cycle) || !(seats >= 1 && seats <= MAX_SEATS)) return undefined;
  return { plan: choice.plan, seats, cycle: choice.cycle };
}

export const dashboardBillingSubscriptionRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (
  app,
  { db, now, billing, guard, cardCheckoutOrigin },
) => {
  const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
  const change = { public: true, idempotency: 'none', dashboardPage: { requires: 'billing:write' } } as const;
  const planPolicy = checkoutPolicy(cardCheckoutOrigin);

  async function showSubscription(request: FastifyRequest, reply: FastifyReply, problem?: string, status = 200) {
    const context = request.dashboard;
    const organization = organizationOf(request);
    const page = subscriptionPage({
      locale: context.locale,
      signedIn: frameOf(context),
      subscription: await subscriptionViewOf(db, organization.id),
      mayChange: allows(organization.role, 'billing:write'),
      notice: billingNotice(context.locale, (request.query as { notice?: string }).notice),
      problem,
    });
    return sendPage(reply, page, status);
  }

  /** The plan page for a choice: its price, the server's preview of a change, and the confirm form. */
  async function showPlan(
    request: FastifyRequest,
    reply: FastifyReply,
    choice: PlanChoice,
    options: { key?: string; problem?: string; status?: number } = {},
  ) {
    const context = request.dashboard;
    const { locale } = context;
    const organization = organizationOf(request);
    const subscription = await subscriptionViewOf(db, organization.id);
    const purchase = subscription === null || subscription.endedAt !== null;
    const terms = termsOf(choice);
    const given = choice.seats !== '';
    const view: PlanPageView = {
      locale,
      signedIn: frameOf(context),
      choice,
      purchase,
      cards: [],
      problem:
        options.problem ??
        (given && terms === undefined
          ? text(locale, 'dashboard.billing.plan.badTerms', { max: MAX_SEATS.toLocaleString('en-KE') })
          : undefined),
    };
    let status = options.status ?? (given && terms === undefined ? 400 : 200);
    if (terms !== undefined) {
      view.priced = { terms, quote: quote(terms) };
      let previewed = purchase;
      if (!purchase) {
        try {
          view.preview = await previewUpgrade(db, organization.id, terms, now());
          previewed = true;
        } catch (error) {
          // Nothing would change (400), or no subscription to change (409): said on the page.
          if (!isAppError(error) || error.statusCode >= 500) throw error;
          view.problem ??= error.message;
          status = options.status ?? error.statusCode;
        }
      }
      if (previewed && allows(organization.role, 'billing:write')) {
        view.confirm = { key: options.key ?? newFormKey() };
        view.cards = (await listPaymentMethods(db, organization.id)).filter((method) => method.card !== null);
      }
    }
    return sendPage(reply, planPage(view), status, view.confirm === undefined ? undefined : planPolicy);
  }

  app.get(
    BILLING_PATH,
    {
      config: read,
      preHandler: guard,
      schema: { ...documented('Billing: the mail subscription (HTML)'), querystring: BillingPageQuery },
    },
    (request, reply) => showSubscription(request, reply),
  );

  app.get(
    BILLING_PLAN_PATH,
    {
      config: read,
      preHandler: guard,
      schema: { ...documented('Billing: choosing a plan, with its price and preview (HTML)'), querystring: PlanQuery },
    },
    (request, reply) => {
      const current = request.query;
      const choice = {
        plan: current.plan ?? 'core',
        seats: current.seats?.trim() ?? '',
        cycle: current.cycle ?? 'monthly',
      };
      return showPlan(request, reply, choice);
    },
  );

  app.post(
    BILLING_PLAN_PATH,
    {
      config: change,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Buys a plan at the card checkout, or changes the plan (form)'), body: FormBody },
    },
    async (request, reply) => {
      const fields = fieldsOf(request.body);
      const choice = { plan: fields['plan'] ?? '', seats: fields['seats'] ?? '', cycle: fields['cycle'] ?? '' };
      const terms = termsOf(choice);
      const key = formKeyOf(fields);
      const { locale } = request.dashboard;
      if (terms === undefined || key === undefined) {
        const problem = text(locale, 'dashboard.billing.plan.badTerms', { max: MAX_SEATS.toLocaleString('en-KE') });
        return showPlan(request, reply, choice, { problem, status: 400 });
      }
      const requester = requesterOf(request);
      const idempotency = formIdempotency(request, key, fields);
      try {
        const subscription = await subscriptionViewOf(db, requester.organizationId);
        if (subscription === null || subscription.endedAt !== null) {
          const metadata = {
            type: 'mail_subscription' as const,
            plan: terms.plan,
            seats: terms.seats,
            billingCycle: terms.cycle,
          };
          const location = await sendOnce(db, idempotency, now(), async () => {
            const { answer } = await startPayment(billing, { ...requester, idempotency }, { method: 'card', metadata });
            request.log.info({ reference: answer.reference }, 'Subscription purchase started from the dashboard');
            return answer.checkoutUrl ?? BILLING_PATH;
          });
          return redirectTo(reply, location);
        }
        const location = await sendOnce(db, idempotency, now(), async () => {
          const result = await upgradeSubscription(
            billing,
            requester,
            terms,
            fields['paymentMethodId'] || undefined,
            idempotency,
          );
          request.log.info({ statusCode: result.statusCode }, 'Subscription change asked from the dashboard');
          return `${BILLING_PATH}?notice=${result.statusCode === 202 ? 'charging' : 'changed'}`;
        });
        return redirectTo(reply, location);
      } catch (error) {
        // Refused (a declined card, nothing to change, a change in progress, a purchase while one runs): said on the
        // plan page, with the choice kept. A 5xx is the error page.
        if (!isAppError(error) || error.statusCode >= 500) throw error;
        return showPlan(request, reply, choice, {
          key,
          problem: formProblemOf(locale, error),
          status: error.statusCode,
        });
      }
    },
  );

  for (const [path, summary, notice] of [
    [CANCEL_PATH, 'Cancels the subscription at the end of its period (form)', 'canceled'],
    [RESUME_PATH, 'Keeps a subscription that is set to cancel (form)', 'resumed'],
  ] as const) {
    app.post(
      path,
      {
        config: change,
        preHandler: [app.csrfProtection, guard],
        schema: { ...documented(summary), body: FormBody },
      },
      async (request, reply) => {
        const requester = requesterOf(request);
        try {
          // Cancel and resume write only locally: asked twice, the second changes nothing and says so.
          await db.transaction((tx) =>
            notice === 'canceled'
              ? cancelSubscription(tx, billing.ctx, requester, now())
              : resumeCanceledSubscription(tx, requester),
          );
        } catch (error) {
          if (!isAppError(error) || error.statusCode !== 409) throw error;
          return showSubscription(request, reply, error.message, 409);
        }
        request.log.info({ organizationId: requester.organizationId }, `Subscription ${notice} from the dashboard`);
        return withNotice(reply, BILLING_PATH, notice);
      },
    );
  }
};
