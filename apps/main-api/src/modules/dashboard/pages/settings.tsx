/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { OrganizationWalletView } from '../../wallets/index.js';
import type { FormRefusal } from '../account-forms.js';
import { Fact, Field } from './account-form.js';
import { formatWholeKes } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { SETTINGS_PATH } from './nav.js';

// The Settings page (docs/decisions.md#dashboard-pages): the organization's details as PATCH /v1/organizations/:id
// changes them (an owner's form; the others read them), and the low-balance alerts of its two wallets as PATCH
// /v1/organizations/:id/wallets/:environment sets them (the billing roles' form).

export const LOW_BALANCE_PATH = `${SETTINGS_PATH}/low-balance`;

export interface SettingsValues {
  name: string;
  kraPin: string;
  address: string;
  billingEmail: string;
}

/** The thresholds as the form shows them: whole KES, empty for no alerts. */
export type ThresholdValues = Record<ApiKeyEnvironment, string>;

export interface SettingsView {
  locale: Locale;
  signedIn: SignedInFrame;
  organizationName: string;
  /** The details as stored, for the roles that only read them. */
  stored: SettingsValues;
  values: SettingsValues;
  wallets: readonly OrganizationWalletView[];
  thresholds: ThresholdValues;
  /** Whether the role may change the details (owners:write) and the alerts (billing:write): else no form. */
  mayEdit: boolean;
  mayEditAlerts: boolean;
  notice?: string | undefined;
  refusal?: FormRefusal | undefined;
  alertsRefusal?: FormRefusal | undefined;
}

export function settingsLabels(locale: Locale): Record<keyof SettingsValues, string> {
  return {
    name: text(locale, 'dashboard.settings.name'),
    kraPin: text(locale, 'dashboard.settings.kraPin'),
    address: text(locale, 'dashboard.settings.address'),
    billingEmail: text(locale, 'dashboard.settings.billingEmail'),
  };
}

export function thresholdLabels(locale: Locale): ThresholdValues {
  return {
    live: text(locale, 'dashboard.settings.threshold.live'),
    test: text(locale, 'dashboard.settings.threshold.test'),
  };
}

function DetailsForm({ view }: { view: SettingsView }) {
  const { locale, values } = view;
  const problems = view.refusal?.problems ?? {};
  const labels = settingsLabels(locale);
  const optional = text(locale, 'dashboard.settings.optionalHint');
  return (
    <form method="post" action={SETTINGS_PATH} class="fields">
      <CsrfField token={view.signedIn.csrfToken} />
      <Field
        id="settings-name"
        name="name"
        label={labels.name}
        value={values.name}
        problem={problems['name']}
        maxlength={400}
        autocomplete="organization"
        required
      />
      <Field
        id="settings-kra-pin"
        name="kraPin"
        label={labels.kraPin}
        value={values.kraPin}
        hint={`${text(locale, 'dashboard.settings.kraPinHint')} ${optional}`}
        problem={problems['kraPin']}
        maxlength={64}
      />
      <Field
        id="settings-address"
        name="address"
        label={labels.address}
        value={values.address}
        hint={`${text(locale, 'dashboard.settings.addressHint')} ${optional}`}
        problem={problems['address']}
        maxlength={800}
        autocomplete="street-address"
        rows={4}
      />
      <Field
        id="settings-billing-email"
        name="billingEmail"
        type="email"
        label={labels.billingEmail}
        value={values.billingEmail}
        hint={`${text(locale, 'dashboard.settings.billingEmailHint')} ${optional}`}
        problem={problems['billingEmail']}
        maxlength={600}
        autocomplete="email"
      />
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.settings.save')}
        </button>
      </div>
    </form>
  );
}

function StoredDetails({ locale, stored }: { locale: Locale; stored: SettingsValues }) {
  const labels = settingsLabels(locale);
  const unset = text(locale, 'dashboard.settings.notSet');
  return (
    <>
      <dl class="facts">
        <Fact label={labels.name} value={stored.name} unset={unset} />
        <Fact label={labels.kraPin} value={stored.kraPin} unset={unset} />
        <Fact label={labels.address} value={stored.address} unset={unset} />
        <Fact label={labels.billingEmail} value={stored.billingEmail} unset={unset} />
      </dl>
      <p class="hint">{say(locale, 'dashboard.settings.ownersOnly')}</p>
    </>
  );
}

function AlertsForm({ view }: { view: SettingsView }) {
  const { locale } = view;
  const problems = view.alertsRefusal?.problems ?? {};
  const labels = thresholdLabels(locale);
  return (
    <form method="post" action={LOW_BALANCE_PATH} class="fields">
      <CsrfField token={view.signedIn.csrfToken} />
      {view.wallets.map((wallet) => (
        <Field
          id={`threshold-${wallet.environment}`}
          name={wallet.environment}
          type="number"
          label={labels[wallet.environment]}
          value={view.thresholds[wallet.environment]}
          hint={text(locale, 'dashboard.settings.thresholdHint')}
          problem={problems[wallet.environment]}
        />
      ))}
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.settings.saveThresholds')}
        </button>
      </div>
    </form>
  );
}

function StoredAlerts({ view }: { view: SettingsView }) {
  const { locale } = view;
  const labels = thresholdLabels(locale);
  return (
    <>
      <dl class="facts">
        {view.wallets.map((wallet) => (
          <Fact
            label={labels[wallet.environment]}
            value={
              wallet.lowBalanceThreshold === null
                ? null
                : text(locale, 'dashboard.settings.kes', { amount: formatWholeKes(wallet.lowBalanceThreshold) })
            }
            unset={text(locale, 'dashboard.settings.noAlerts')}
          />
        ))}
      </dl>
      <p class="hint">{say(locale, 'dashboard.settings.billingOnly')}</p>
    </>
  );
}

export function settingsPage(view: SettingsView): string {
  const { locale } = view;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.settings.title'),
    path: SETTINGS_PATH,
    signedIn: view.signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.settings.title')}</h1>
        <p>{say(locale, 'dashboard.settings.intro', { organization: view.organizationName })}</p>
        <Message text={view.notice} />
        <h2>{say(locale, 'dashboard.settings.organization')}</h2>
        <Message text={view.refusal?.message} kind="alert" />
        {view.mayEdit ? <DetailsForm view={view} /> : <StoredDetails locale={locale} stored={view.stored} />}
        <h2>{say(locale, 'dashboard.settings.lowBalance')}</h2>
        <p>{say(locale, 'dashboard.settings.lowBalanceIntro')}</p>
        <Message text={view.alertsRefusal?.message} kind="alert" />
        {view.mayEditAlerts ? <AlertsForm view={view} /> : <StoredAlerts view={view} />}
      </>
    ),
  });
}
