/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { BILLING_CYCLES, MAX_SEATS, PLANS, type Quote, type SubscriptionTerms } from '@platform/pricing';
import { type Locale, say, text } from '@platform/templates';
import type { PaymentMethodView, UpgradePreview } from '../../billing/index.js';
import { BillingForm, type BillingFrame, billingPage, Field, formatDay, kes, methodLabel } from './billing-layout.js';
import { BILLING_PATH, BILLING_PLAN_PATH } from './nav.js';

// Choosing a plan (docs/decisions.md#dashboard-pages): a GET form of plan, seats and cycle (a chosen plan is a link),
// the price list's price from @platform/pricing and, for a running subscription, the server's preview of the change
// (`GET /v1/billing/upgrade/preview`'s service); then the confirm form: a purchase paid at the card checkout, or the
// change charged to a saved card as `POST /v1/billing/upgrade` does.

export interface PlanChoice {
  plan: string;
  seats: string;
  cycle: string;
}

export interface PlanPageView extends BillingFrame {
  choice: PlanChoice;
  /** The terms chosen, once they are valid; their price list price. */
  priced?: { terms: SubscriptionTerms; quote: Quote } | undefined;
  /** For a running subscription: the server's preview of the change. Undefined for a purchase. */
  preview?: UpgradePreview | undefined;
  /** Whether the terms would be a purchase (no running subscription) or a change. */
  purchase: boolean;
  /** The saved cards a change may be charged to. */
  cards: readonly PaymentMethodView[];
  /** The confirm form, when the role may confirm and the terms are priced. */
  confirm?: { key: string } | undefined;
}

function Choice({ locale, choice }: { locale: Locale; choice: PlanChoice }) {
  return (
    <form
      method="get"
      action={BILLING_PLAN_PATH}
      class="filters"
      aria-label={text(locale, 'dashboard.billing.plan.title')}
    >
      <Field id="plan-plan" label={text(locale, 'dashboard.billing.subscription.plan')}>
        <select id="plan-plan" name="plan">
          {PLANS.map((plan) => (
            <option value={plan} selected={plan === choice.plan}>
              {text(locale, `dashboard.billing.plan.${plan}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="plan-seats"
        label={text(locale, 'dashboard.billing.subscription.seats')}
        hint={text(locale, 'dashboard.billing.plan.seatsHint', { max: MAX_SEATS.toLocaleString('en-KE') })}
      >
        <input
          id="plan-seats"
          type="text"
          inputmode="numeric"
          name="seats"
          value={choice.seats}
          aria-describedby="plan-seats-hint"
          required
        />
      </Field>
      <Field id="plan-cycle" label={text(locale, 'dashboard.billing.subscription.cycle')}>
        <select id="plan-cycle" name="cycle">
          {BILLING_CYCLES.map((cycle) => (
            <option value={cycle} selected={cycle === choice.cycle}>
              {text(locale, `dashboard.billing.cycle.${cycle}`)}
            </option>
          ))}
        </select>
      </Field>
      <div class="actions">
        <button type="submit">{say(locale, 'dashboard.billing.plan.preview')}</button>
      </div>
    </form>
  );
}

function Price({ view }: { view: PlanPageView }) {
  const { locale, priced, preview } = view;
  if (priced === undefined) return null;
  const { quote } = priced;
  return (
    <section aria-labelledby="plan-price" class="card">
      <h2 id="plan-price">{say(locale, 'dashboard.billing.subscription.price')}</h2>
      <p>
        {say(locale, 'dashboard.billing.plan.price', {
          price: kes(locale, quote.total),
          perSeat: kes(locale, quote.pricePerSeatMonthly),
        })}
      </p>
      {view.purchase ? (
        <p>{say(locale, 'dashboard.billing.plan.purchase', { price: kes(locale, quote.total) })}</p>
      ) : preview === undefined ? null : preview.takesEffect === 'period_end' ? (
        <p>
          {say(locale, 'dashboard.billing.plan.downgrade', {
            date: formatDay(locale, preview.newPeriod.start),
            price: kes(locale, preview.newPrice),
          })}
        </p>
      ) : (
        <p>
          <strong>
            {say(locale, 'dashboard.billing.plan.dueToday', {
              amount: kes(locale, preview.amountDueToday),
              days: preview.daysRemaining,
              total: preview.daysInPeriod,
              credit: kes(locale, preview.creditApplied),
            })}
          </strong>
        </p>
      )}
    </section>
  );
}

function Confirm({ view }: { view: PlanPageView }) {
  const { locale, priced, confirm, preview } = view;
  if (priced === undefined || confirm === undefined) return null;
  const charged = !view.purchase && preview !== undefined && preview.amountDueToday > 0;
  if (charged && view.cards.length === 0)
    return <p class="message alert">{say(locale, 'dashboard.billing.plan.noCard')}</p>;
  const { terms } = priced;
  return (
    <BillingForm action={BILLING_PLAN_PATH} csrfToken={view.signedIn.csrfToken} formKey={confirm.key}>
      <input type="hidden" name="plan" value={terms.plan} />
      <input type="hidden" name="seats" value={String(terms.seats)} />
      <input type="hidden" name="cycle" value={terms.cycle} />
      {charged ? (
        <Field id="plan-card" label={text(locale, 'dashboard.billing.plan.card')}>
          <select id="plan-card" name="paymentMethodId">
            {view.cards.map((card) => (
              <option value={card.id}>{methodLabel(locale, card)}</option>
            ))}
          </select>
        </Field>
      ) : null}
      <p>
        <button type="submit" class="primary">
          {say(locale, view.purchase ? 'dashboard.billing.plan.confirmBuy' : 'dashboard.billing.plan.confirmChange')}
        </button>
      </p>
    </BillingForm>
  );
}

export function planPage(view: PlanPageView): string {
  const { locale } = view;
  return billingPage({
    ...view,
    title: 'dashboard.billing.plan.title',
    path: BILLING_PLAN_PATH,
    section: BILLING_PATH,
    body: (
      <>
        <p>
          <a href={BILLING_PATH}>{say(locale, 'dashboard.billing.plan.back')}</a>
        </p>
        <p>{say(locale, 'dashboard.billing.plan.intro')}</p>
        <Choice locale={locale} choice={view.choice} />
        <Price view={view} />
        <Confirm view={view} />
      </>
    ),
  });
}
