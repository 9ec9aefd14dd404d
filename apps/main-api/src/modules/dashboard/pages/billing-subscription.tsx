/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type BilingualKey, type Locale, say, text } from '@platform/templates';
import type { MailSubscriptionView } from '../../billing/index.js';
import { BillingForm, type BillingFrame, billingPage, formatDay, kes, termsText } from './billing-layout.js';
import { BILLING_PATH, BILLING_PLAN_PATH } from './nav.js';

// The Subscription page (docs/decisions.md#dashboard-pages): the mail subscription as `GET /v1/billing/subscription`
// answers it, its cancel at the period end or its resume, and the way to change the plan (or buy one).

export const CANCEL_PATH = `${BILLING_PATH}/subscription/cancel`;
export const RESUME_PATH = `${BILLING_PATH}/subscription/resume`;

export interface SubscriptionPageView extends BillingFrame {
  subscription: MailSubscriptionView | null;
  /** Whether the role may change it (cancel, resume, change the plan): the controls show only then. */
  mayChange: boolean;
}

/** Whether the subscription still runs (cancel and resume apply), as the cancel service decides. */
const runs = (subscription: MailSubscriptionView) => subscription.endedAt === null;

function Facts({ locale, subscription }: { locale: Locale; subscription: MailSubscriptionView }) {
  const row = (label: BilingualKey, value: string) => (
    <>
      <dt>{say(locale, label)}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <dl class="facts stackable">
      {row('dashboard.billing.subscription.plan', text(locale, `dashboard.billing.plan.${subscription.plan}`))}
      {row('dashboard.billing.subscription.seats', subscription.seats.toLocaleString('en-KE'))}
      {row(
        'dashboard.billing.subscription.cycle',
        text(locale, `dashboard.billing.cycle.${subscription.billingCycle}`),
      )}
      {row(
        'dashboard.billing.subscription.status',
        text(locale, `dashboard.billing.subscriptionStatus.${subscription.status}`),
      )}
      {row(
        'dashboard.billing.subscription.period',
        text(locale, 'dashboard.billing.subscription.periodRange', {
          start: formatDay(locale, subscription.currentPeriodStart),
          end: formatDay(locale, subscription.currentPeriodEnd),
        }),
      )}
      {row(
        'dashboard.billing.subscription.renews',
        subscription.renewsAt === null
          ? text(locale, 'dashboard.billing.subscription.noRenewal')
          : formatDay(locale, subscription.renewsAt),
      )}
      {row('dashboard.billing.subscription.price', kes(locale, subscription.price.total))}
      {row('dashboard.billing.subscription.credit', kes(locale, subscription.creditBalance))}
    </dl>
  );
}

function Standing({ locale, subscription }: { locale: Locale; subscription: MailSubscriptionView }) {
  const scheduled = subscription.scheduledChange;
  return (
    <>
      {subscription.cancelAtPeriodEnd && runs(subscription) ? (
        <p class="message alert">
          {say(locale, 'dashboard.billing.subscription.cancelAt', {
            date: formatDay(locale, subscription.currentPeriodEnd),
          })}
        </p>
      ) : null}
      {scheduled === null ? null : (
        <p>
          {say(locale, 'dashboard.billing.subscription.scheduled', {
            date: formatDay(locale, scheduled.effectiveAt),
            terms: termsText(locale, { plan: scheduled.plan, seats: scheduled.seats, cycle: scheduled.billingCycle }),
            price: kes(locale, scheduled.price),
          })}
        </p>
      )}
      {subscription.changeInProgress ? <p>{say(locale, 'dashboard.billing.subscription.inProgress')}</p> : null}
    </>
  );
}

function Controls({
  locale,
  csrfToken,
  subscription,
}: {
  locale: Locale;
  csrfToken: string;
  subscription: MailSubscriptionView;
}) {
  if (!runs(subscription)) return null;
  return subscription.cancelAtPeriodEnd ? (
    <BillingForm action={RESUME_PATH} csrfToken={csrfToken}>
      <p>{say(locale, 'dashboard.billing.subscription.resumeHint')}</p>
      <p>
        <button type="submit" class="primary">
          {say(locale, 'dashboard.billing.subscription.resume')}
        </button>
      </p>
    </BillingForm>
  ) : (
    <BillingForm action={CANCEL_PATH} csrfToken={csrfToken}>
      <p>{say(locale, 'dashboard.billing.subscription.cancelHint')}</p>
      <p>
        <button type="submit">{say(locale, 'dashboard.billing.subscription.cancel')}</button>
      </p>
    </BillingForm>
  );
}

export function subscriptionPage(view: SubscriptionPageView): string {
  const { locale, signedIn, subscription } = view;
  const buying = subscription === null || !runs(subscription);
  return billingPage({
    ...view,
    title: 'dashboard.billing.subscription.title',
    path: BILLING_PATH,
    section: BILLING_PATH,
    body: (
      <>
        {subscription === null ? (
          <p>{say(locale, 'dashboard.billing.subscription.none')}</p>
        ) : (
          <>
            <Facts locale={locale} subscription={subscription} />
            <Standing locale={locale} subscription={subscription} />
          </>
        )}
        {view.mayChange ? (
          <>
            <p>
              <a href={BILLING_PLAN_PATH}>
                {say(locale, buying ? 'dashboard.billing.subscription.buy' : 'dashboard.billing.subscription.change')}
              </a>
            </p>
            {subscription === null ? null : (
              <Controls locale={locale} csrfToken={signedIn.csrfToken} subscription={subscription} />
            )}
          </>
        ) : null}
      </>
    ),
  });
}
