/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import type { WalletTransactionView } from '@platform/ledger';
import { type Locale, say, text } from '@platform/templates';
import { receiptPageOf } from '../../billing/index.js';
import type { OrganizationWalletView } from '../../wallets/index.js';
import { BillingForm, type BillingFrame, billingPage, Field, kes } from './billing-layout.js';
import { formatMoment } from './format.js';
import { ACTIVATION_PATH, BILLING_WALLET_PATH } from './nav.js';

// The Wallet page (docs/decisions.md#dashboard-pages): both balances, the statement of the environment shown, a page
// at a time, and its top-up: on test a free test top-up of any amount, on live a payment by card, M-Pesa or bank
// transfer, locked (with why, and where to unlock it) until the organization is activated.

export const TEST_TOP_UP_PATH = `${BILLING_WALLET_PATH}/test-top-up`;
export const LIVE_TOP_UP_PATH = `${BILLING_WALLET_PATH}/top-up`;

export const topUpMethods = ['card', 'mobile_money', 'bank_transfer'] as const;

export interface TopUpForm {
  key: string;
  amount: string;
  method?: string;
  phone?: string;
}

export interface WalletView extends BillingFrame {
  environment: ApiKeyEnvironment;
  wallets: readonly OrganizationWalletView[];
  transactions: readonly WalletTransactionView[];
  nextPage: string | null;
  laterPage: boolean;
  /** The test top-up form, when the page shows test data and the role may top up. */
  testTopUp?: TopUpForm | undefined;
  /** The live top-up, when the page shows live data and the role may pay: its form, or why it is locked. */
  liveTopUp?: { form: TopUpForm; locked: boolean } | undefined;
}

function Balances({ locale, wallets }: { locale: Locale; wallets: readonly OrganizationWalletView[] }) {
  return (
    <ul class="cards">
      {wallets.map((wallet) => (
        <li class="card">
          <h3>{say(locale, `dashboard.billing.wallet.balance.${wallet.environment}`)}</h3>
          <p class="amount">{kes(locale, wallet.available)}</p>
          <p>{say(locale, 'dashboard.billing.wallet.held', { amount: kes(locale, wallet.held) })}</p>
        </li>
      ))}
    </ul>
  );
}

function TestTopUp({ locale, csrfToken, form }: { locale: Locale; csrfToken: string; form: TopUpForm }) {
  return (
    <section aria-labelledby="test-top-up">
      <h2 id="test-top-up">{say(locale, 'dashboard.billing.wallet.testTopUp')}</h2>
      <p>{say(locale, 'dashboard.billing.wallet.testTopUpIntro')}</p>
      <BillingForm action={TEST_TOP_UP_PATH} csrfToken={csrfToken} formKey={form.key} class="row">
        <Field id="test-amount" label={text(locale, 'dashboard.billing.wallet.amount')}>
          <input id="test-amount" type="text" inputmode="numeric" name="amount" value={form.amount} required />
        </Field>
        <button type="submit" class="primary">
          {say(locale, 'dashboard.billing.wallet.testTopUpSubmit')}
        </button>
      </BillingForm>
    </section>
  );
}

function LiveTopUp({ locale, csrfToken, form }: { locale: Locale; csrfToken: string; form: TopUpForm }) {
  const method = form.method ?? 'card';
  return (
    <BillingForm action={LIVE_TOP_UP_PATH} csrfToken={csrfToken} formKey={form.key}>
      <Field id="live-amount" label={text(locale, 'dashboard.billing.wallet.amount')}>
        <input id="live-amount" type="text" inputmode="numeric" name="amount" value={form.amount} required />
      </Field>
      <fieldset>
        <legend>{say(locale, 'dashboard.billing.wallet.method')}</legend>
        {topUpMethods.map((each) => (
          <label class="choice">
            <input type="radio" name="method" value={each} checked={each === method} />{' '}
            {say(locale, `dashboard.billing.method.${each}`)}
          </label>
        ))}
      </fieldset>
      <Field
        id="live-phone"
        label={text(locale, 'dashboard.billing.wallet.phone')}
        hint={text(locale, 'dashboard.billing.wallet.phoneHint')}
      >
        <input
          id="live-phone"
          type="tel"
          name="phone"
          value={form.phone ?? ''}
          autocomplete="tel"
          aria-describedby="live-phone-hint"
        />
      </Field>
      <p>
        <button type="submit" class="primary">
          {say(locale, 'dashboard.billing.wallet.topUpSubmit')}
        </button>
      </p>
    </BillingForm>
  );
}

function LiveSection({
  locale,
  csrfToken,
  live,
}: {
  locale: Locale;
  csrfToken: string;
  live: WalletView['liveTopUp'];
}) {
  if (live === undefined) return null;
  return (
    <section aria-labelledby="live-top-up">
      <h2 id="live-top-up">{say(locale, 'dashboard.billing.wallet.topUp')}</h2>
      {live.locked ? (
        <p class="message alert" role="status">
          {say(locale, 'dashboard.billing.wallet.locked', {
            link: <a href={ACTIVATION_PATH}>{text(locale, 'dashboard.billing.wallet.activate')}</a>,
          })}
        </p>
      ) : (
        <LiveTopUp locale={locale} csrfToken={csrfToken} form={live.form} />
      )}
    </section>
  );
}

function Statement({ locale, transactions }: { locale: Locale; transactions: readonly WalletTransactionView[] }) {
  if (transactions.length === 0) return <p>{say(locale, 'dashboard.billing.wallet.noTransactions')}</p>;
  return (
    // May scroll sideways (stacked as cards on a phone): a region the keyboard can reach and scroll.
    <section class="table stacked" tabindex={0} aria-label={text(locale, 'dashboard.billing.wallet.statement')}>
      <table>
        <caption>{say(locale, 'dashboard.billing.wallet.statement')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.billing.when')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.wallet.kind')}</th>
            <th scope="col">{say(locale, 'dashboard.billing.wallet.what')}</th>
            <th scope="col" class="num">
              {say(locale, 'dashboard.billing.amount')}
            </th>
            <th scope="col" class="num">
              {say(locale, 'dashboard.billing.wallet.after')}
            </th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((each) => (
            <tr>
              <td data-label={text(locale, 'dashboard.billing.when')}>{formatMoment(locale, each.createdAt)}</td>
              <td data-label={text(locale, 'dashboard.billing.wallet.kind')}>
                {say(locale, `dashboard.billing.wallet.kind.${each.kind}`)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.wallet.what')} class="mono">
                {each.paymentReference === null ? (
                  (each.description ?? each.reference)
                ) : (
                  <a href={receiptPageOf(each.paymentReference)}>{each.paymentReference}</a>
                )}
              </td>
              <td data-label={text(locale, 'dashboard.billing.amount')} class="num">
                {kes(locale, each.amount)}
              </td>
              <td data-label={text(locale, 'dashboard.billing.wallet.after')} class="num">
                {kes(locale, each.balanceAfter.available)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function walletPage(view: WalletView): string {
  const { locale, signedIn } = view;
  return billingPage({
    ...view,
    title: 'dashboard.billing.wallet.title',
    path: BILLING_WALLET_PATH,
    section: BILLING_WALLET_PATH,
    body: (
      <>
        <Balances locale={locale} wallets={view.wallets} />
        {view.testTopUp === undefined ? null : (
          <TestTopUp locale={locale} csrfToken={signedIn.csrfToken} form={view.testTopUp} />
        )}
        <LiveSection locale={locale} csrfToken={signedIn.csrfToken} live={view.liveTopUp} />
        <h2>{say(locale, `dashboard.billing.wallet.statement.${view.environment}`)}</h2>
        <Statement locale={locale} transactions={view.transactions} />
        <p class="pager">
          {view.laterPage ? <a href={BILLING_WALLET_PATH}>{say(locale, 'dashboard.billing.first')}</a> : null}
          {view.nextPage === null ? null : <a href={view.nextPage}>{say(locale, 'dashboard.billing.next')}</a>}
        </p>
      </>
    ),
  });
}
