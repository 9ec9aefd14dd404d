/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import type { PaymentMethodView } from '../../billing/index.js';
import { BillingForm, type BillingFrame, billingPage, Field, formatDay, methodLabel } from './billing-layout.js';
import { LIVE_TOP_UP_PATH } from './billing-wallet.js';
import { ACTIVATION_PATH, BILLING_METHODS_PATH } from './nav.js';

// The payment methods (docs/decisions.md#dashboard-pages): the saved cards and M-Pesa numbers of
// `GET /v1/billing/payment-methods`, each with its remove form, and how to add one: a method is saved when it pays,
// so adding one is a live top-up paid with it (at the card checkout, or by an M-Pesa prompt).

const methodPath = (id: string) => `${BILLING_METHODS_PATH}/${encodeURIComponent(id)}/remove`;

export interface MethodsView extends BillingFrame {
  methods: readonly PaymentMethodView[];
  /** Whether the role may remove and add methods. */
  mayChange: boolean;
  /** Adding: on live data, its forms' keys, or why it is locked; undefined on test data. */
  add?: { cardKey: string; mpesaKey: string; locked: boolean } | undefined;
}

function Method({ view, method }: { view: MethodsView; method: PaymentMethodView }) {
  const { locale } = view;
  const label = methodLabel(locale, method);
  return (
    <li class="card">
      <h3>{label}</h3>
      {method.card === null || method.card.expMonth === null || method.card.expYear === null ? null : (
        <p>
          {say(locale, 'dashboard.billing.methods.expires', {
            month: String(method.card.expMonth).padStart(2, '0'),
            year: method.card.expYear,
          })}
        </p>
      )}
      <p>{say(locale, 'dashboard.billing.methods.added', { date: formatDay(locale, method.createdAt) })}</p>
      {view.mayChange ? (
        <BillingForm action={methodPath(method.id)} csrfToken={view.signedIn.csrfToken} class="inline">
          <button type="submit" aria-label={text(locale, 'dashboard.billing.methods.removeLabel', { method: label })}>
            {say(locale, 'dashboard.billing.methods.remove')}
          </button>
        </BillingForm>
      ) : null}
    </li>
  );
}

function AddForm(props: { locale: Locale; csrfToken: string; formKey: string; method: 'card' | 'mobile_money' }) {
  const { locale } = props;
  const id = `add-${props.method}`;
  return (
    <BillingForm action={LIVE_TOP_UP_PATH} csrfToken={props.csrfToken} formKey={props.formKey} class="row">
      <input type="hidden" name="method" value={props.method} />
      <Field id={`${id}-amount`} label={text(locale, 'dashboard.billing.wallet.amount')}>
        <input id={`${id}-amount`} type="text" inputmode="numeric" name="amount" required />
      </Field>
      {props.method === 'mobile_money' ? (
        <Field id={`${id}-phone`} label={text(locale, 'dashboard.billing.wallet.phone')}>
          <input id={`${id}-phone`} type="tel" name="phone" autocomplete="tel" required />
        </Field>
      ) : null}
      <button type="submit">
        {say(
          locale,
          props.method === 'card' ? 'dashboard.billing.methods.addCard' : 'dashboard.billing.methods.addMpesa',
        )}
      </button>
    </BillingForm>
  );
}

function Add({ view }: { view: MethodsView }) {
  const { locale, add } = view;
  if (!view.mayChange) return null;
  return (
    <section aria-labelledby="add-method">
      <h2 id="add-method">{say(locale, 'dashboard.billing.methods.add')}</h2>
      {add === undefined ? (
        <p>{say(locale, 'dashboard.billing.methods.live')}</p>
      ) : add.locked ? (
        <p class="message alert" role="status">
          {say(locale, 'dashboard.billing.wallet.locked', {
            link: <a href={ACTIVATION_PATH}>{text(locale, 'dashboard.billing.wallet.activate')}</a>,
          })}
        </p>
      ) : (
        <>
          <p>{say(locale, 'dashboard.billing.methods.addIntro')}</p>
          <AddForm locale={locale} csrfToken={view.signedIn.csrfToken} formKey={add.cardKey} method="card" />
          <AddForm locale={locale} csrfToken={view.signedIn.csrfToken} formKey={add.mpesaKey} method="mobile_money" />
        </>
      )}
    </section>
  );
}

export function methodsPage(view: MethodsView): string {
  const { locale } = view;
  return billingPage({
    ...view,
    title: 'dashboard.billing.methods.title',
    path: BILLING_METHODS_PATH,
    section: BILLING_METHODS_PATH,
    body: (
      <>
        <p>{say(locale, 'dashboard.billing.methods.intro')}</p>
        {view.methods.length === 0 ? (
          <p>{say(locale, 'dashboard.billing.methods.empty')}</p>
        ) : (
          <ul class="cards">
            {view.methods.map((method) => (
              <Method view={view} method={method} />
            ))}
          </ul>
        )}
        <Add view={view} />
      </>
    ),
  });
}
