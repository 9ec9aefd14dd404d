/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { paymentMethodKinds, paymentPurposes, paymentStatuses } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import { invoicePageOf, type PaymentView, receiptPageOf } from '../../billing/index.js';
import { type BillingFrame, billingPage, Field, kes } from './billing-layout.js';
import { formatMoment } from './format.js';
import { BILLING_PAYMENTS_PATH } from './nav.js';

// The payment history (docs/decisions.md#dashboard-pages): the filters as a GET form (a filtered history is a link),
// the payments of `GET /v1/billing/payments` a page at a time, each with its receipt or invoice, and the CSV of the
// filtered history.

export const PAYMENTS_CSV_PATH = `${BILLING_PAYMENTS_PATH}.csv`;

export interface PaymentFilters {
  status?: string | undefined;
  method?: string | undefined;
  purpose?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface PaymentsView extends BillingFrame {
  filters: PaymentFilters;
  payments: readonly PaymentView[];
  nextPage: string | null;
  laterPage: boolean;
}

/** The query of a filtered history: only the filters given. */
export function paymentsQuery(filters: PaymentFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== '') query.set(name, value);
  }
  const written = query.toString();
  return written === '' ? '' : `?${written}`;
}

function Choice(props: {
  locale: Locale;
  name: string;
  label: string;
  value: string | undefined;
  options: readonly [string, string][];
}) {
  return (
    <Field id={`payments-${props.name}`} label={props.label}>
      <select id={`payments-${props.name}`} name={props.name}>
        <option value="">{say(props.locale, 'dashboard.billing.payments.any')}</option>
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}

function Filters({ locale, filters }: { locale: Locale; filters: PaymentFilters }) {
  return (
    <form
      method="get"
      action={BILLING_PAYMENTS_PATH}
      class="filters"
      aria-label={text(locale, 'dashboard.billing.payments.filters')}
    >
      <Choice
        locale={locale}
        name="status"
        label={text(locale, 'dashboard.billing.payments.status')}
        value={filters.status}
        options={paymentStatuses.map((status) => [status, text(locale, `dashboard.billing.paymentStatus.${status}`)])}
      />
      <Choice
        locale={locale}
        name="method"
        label={text(locale, 'dashboard.billing.payments.method')}
        value={filters.method}
        options={paymentMethodKinds.map((method) => [method, text(locale, `dashboard.billing.method.${method}`)])}
      />
      <Choice
        locale={locale}
        name="purpose"
        label={text(locale, 'dashboard.billing.payments.purpose')}
        value={filters.purpose}
        options={paymentPurposes.map((purpose) => [purpose, text(locale, `dashboard.billing.purpose.${purpose}`)])}
      />
      <div class="field">
        <label for="payments-from">{say(locale, 'dashboard.billing.payments.from')}</label>
        <input id="payments-from" type="date" name="from" value={filters.from ?? ''} aria-describedby="payments-days" />
      </div>
      <div class="field">
        <label for="payments-to">{say(locale, 'dashboard.billing.payments.to')}</label>
        <input id="payments-to" type="date" name="to" value={filters.to ?? ''} aria-describedby="payments-days" />
        <span class="hint" id="payments-days">
          {say(locale, 'dashboard.billing.payments.dateHint')}
        </span>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.billing.payments.apply')}
        </button>
        <a href={BILLING_PAYMENTS_PATH}>{say(locale, 'dashboard.billing.payments.clear')}</a>
      </div>
    </form>
  );
}

function Document({ locale, payment }: { locale: Locale; payment: PaymentView }) {
  if (payment.receiptNumber !== null) {
    return (
      <a href={receiptPageOf(payment.reference)}>
        {say(locale, 'dashboard.billing.payments.receipt', { number: payment.receiptNumber })}
      </a>
    );
  }
  if (payment.invoiceNumber !== null) {
    return (
      <a href={invoicePageOf(payment.reference)}>
        {say(locale, 'dashboard.billing.payments.invoice', { number: payment.invoiceNumber })}
      </a>
    );
  }
  return null;
}

function PaymentTable({ locale, payments }: { locale: Locale; payments: readonly PaymentView[] }) {
  return (
    // May scroll sideways (stacked as cards on a phone): a region the keyboard can reach and scroll.
    <section class="table stacked" tabindex={0} aria-label={text(locale, 'dashboard.billing.payments.caption')}>
      <table>
        <caption>{say(locale, 'dashboard.billing.payments.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.billing.when')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.payments.purpose')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.payments.method')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.payments.status')}</th>
            <th scope="col" class="num">
              {say(locale, 'dashboard.billing.amount')}
            </th>
            <th scope="col">{say(locale, 'dashboard.billing.payments.document')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.payments.reference')}</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr>
              <td data-label={text(locale, 'dashboard.billing.when')}>{formatMoment(locale, payment.createdAt)}</td>
              <td data-label={text(locale, 'dashboard.billing.payments.purpose')}>
                {say(locale, `dashboard.billing.purpose.${payment.purpose}`)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.payments.method')}>
                {say(locale, `dashboard.billing.method.${payment.channel}`)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.payments.status')}>
                {say(locale, `dashboard.billing.paymentStatus.${payment.status}`)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.amount')} class="num">
                {kes(locale, payment.amount)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.payments.document')}>
                <Document locale={locale} payment={payment} />
              </td>
              <td data-label={text(locale, 'dashboard.billing.payments.reference')} class="mono">
                {payment.reference}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function paymentsPage(view: PaymentsView): string {
  const { locale, filters } = view;
  return billingPage({
    ...view,
    title: 'dashboard.billing.payments.title',
    path: BILLING_PAYMENTS_PATH,
    section: BILLING_PAYMENTS_PATH,
    body: (
      <>
        <Filters locale={locale} filters={filters} />
        {view.problem !== undefined ? null : (
          <>
            <p>
              <a href={`${PAYMENTS_CSV_PATH}${paymentsQuery(filters)}`} download>
                {say(locale, 'dashboard.billing.payments.csv')}
              </a>
            </p>
            {view.payments.length === 0 ? (
              <p>{say(locale, 'dashboard.billing.payments.empty')}</p>
            ) : (
              <PaymentTable locale={locale} payments={view.payments} />
            )}
          </>
        )}
        <p class="pager">
          {view.laterPage ? (
            <a href={`${BILLING_PAYMENTS_PATH}${paymentsQuery(filters)}`}>{say(locale, 'dashboard.billing.first')}</a>
          ) : null}
          {view.nextPage === null ? null : <a href={view.nextPage}>{say(locale, 'dashboard.billing.next')}</a>}
        </p>
      </>
    ),
  });
}
