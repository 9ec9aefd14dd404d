/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { BillingCycle, Plan } from '@platform/pricing';
import { type BilingualKey, type Child, type Locale, say, text } from '@platform/templates';
import type { PaymentMethodView } from '../../billing/index.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { BILLING_METHODS_PATH, BILLING_PATH, BILLING_PAYMENTS_PATH, BILLING_WALLET_PATH } from './nav.js';

// The frame of the Billing pages (docs/decisions.md#dashboard-pages): the dashboard's frame, the page's heading, the
// links between the four Billing pages, then the page's notice or problem and its body.

const sections: readonly { label: BilingualKey; path: string }[] = [
  { label: 'dashboard.billing.section.subscription', path: BILLING_PATH },
  { label: 'dashboard.billing.section.wallet', path: BILLING_WALLET_PATH },
  { label: 'dashboard.billing.section.methods', path: BILLING_METHODS_PATH },
  { label: 'dashboard.billing.section.payments', path: BILLING_PAYMENTS_PATH },
];

export interface BillingFrame {
  locale: Locale;
  signedIn: SignedInFrame;
  notice?: string | undefined;
  problem?: string | undefined;
}

export function billingPage(
  frame: BillingFrame & { title: BilingualKey; path: string; section: string; body: Child },
): string {
  const { locale } = frame;
  return dashboardPage({
    locale,
    title: text(locale, frame.title),
    path: frame.path,
    signedIn: frame.signedIn,
    body: (
      <>
        <nav aria-label={text(locale, 'dashboard.billing.sections')}>
          <ul class="tabs">
            {sections.map((section) => (
              <li>
                <a href={section.path} aria-current={section.path === frame.section ? 'page' : undefined}>
                  {say(locale, section.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <h1>{say(locale, frame.title)}</h1>
        <Message text={frame.notice} />
        <Message text={frame.problem} kind="alert" />
        {frame.body}
      </>
    ),
  });
}

/** `KES 12,500`, in the page's language. */
export function kes(locale: Locale, amount: number): string {
  return text(locale, 'dashboard.billing.kes', { amount: amount.toLocaleString('en-KE') });
}

const days: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-KE', { timeZone: 'Africa/Nairobi', dateStyle: 'medium' }),
  sw: new Intl.DateTimeFormat('sw-KE', { timeZone: 'Africa/Nairobi', dateStyle: 'medium' }),
};

/** A day in Nairobi, in the page's language (`3 Des 2026`): a period's start and end, a renewal. */
export function formatDay(locale: Locale, at: string | Date): string {
  return days[locale].format(new Date(at));
}

/** A subscription's terms as a phrase: `Growth, 12 seats, Monthly`. */
export function termsText(locale: Locale, terms: { plan: Plan; seats: number; cycle: BillingCycle }): string {
  return text(locale, 'dashboard.billing.subscription.terms', {
    plan: text(locale, `dashboard.billing.plan.${terms.plan}`),
    seats: terms.seats.toLocaleString('en-KE'),
    cycle: text(locale, `dashboard.billing.cycle.${terms.cycle}`),
  });
}

/** A saved method as a phrase: `Visa card ending 4081`, `M-Pesa 0712345678`. */
export function methodLabel(locale: Locale, method: PaymentMethodView): string {
  if (method.card !== null) {
    const { brand, last4 } = method.card;
    return text(locale, 'dashboard.billing.methods.card', { brand: brand ?? '', last4 });
  }
  const phone = method.phone === null ? '' : `0${method.phone.slice(3)}`;
  return text(locale, 'dashboard.billing.methods.mpesa', { phone });
}

/** A form of the Billing pages: POST with the form token and the key that keeps it from acting twice. */
export function BillingForm(props: {
  action: string;
  csrfToken: string;
  formKey?: string | undefined;
  label?: string;
  class?: string;
  children: Child;
}) {
  return (
    <form method="post" action={props.action} class={props.class ?? 'stack'} aria-label={props.label}>
      <CsrfField token={props.csrfToken} />
      {props.formKey === undefined ? null : <input type="hidden" name="key" value={props.formKey} />}
      {props.children}
    </form>
  );
}

/** A labelled field of a form, with its hint. */
export function Field(props: { id: string; label: string; hint?: string | undefined; children: Child }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint === undefined ? null : (
        <span class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  );
}
