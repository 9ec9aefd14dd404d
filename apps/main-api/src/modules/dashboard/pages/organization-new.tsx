/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { BILLING_EMAIL_MAX_LENGTH, ORGANIZATION_ADDRESS_MAX_LENGTH } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import { ORGANIZATION_NAME_MAX_LENGTH } from '../../organizations/index.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { ORGANIZATION_NEW_PATH } from './nav.js';

// The form that creates an organization (docs/decisions.md#dashboard-pages): the fields of `POST /v1/organizations`,
// each with its hint, and after a refusal what was typed, with what is wrong said next to its field.

export const organizationFieldNames = ['name', 'kraPin', 'address', 'billingEmail'] as const;
export type OrganizationFieldName = (typeof organizationFieldNames)[number];
export type OrganizationForm = Partial<Record<OrganizationFieldName, string>>;

export interface OrganizationNewView {
  locale: Locale;
  signedIn: SignedInFrame;
  values: OrganizationForm;
  /** The fields refused, each said next to it. */
  invalid?: ReadonlySet<OrganizationFieldName>;
}

/** What a field takes in the browser; the service's rules count after trimming (organization-fields.ts). */
const limits: Record<OrganizationFieldName, number> = {
  name: ORGANIZATION_NAME_MAX_LENGTH,
  kraPin: 11,
  address: ORGANIZATION_ADDRESS_MAX_LENGTH * 2,
  billingEmail: BILLING_EMAIL_MAX_LENGTH,
};

function Field(props: { locale: Locale; name: OrganizationFieldName; view: OrganizationNewView }) {
  const { locale, name, view } = props;
  const id = `organization-${name}`;
  const invalid = view.invalid?.has(name) === true;
  const described = invalid ? `${id}-hint ${id}-error` : `${id}-hint`;
  const common = {
    id,
    name,
    maxlength: limits[name],
    'aria-describedby': described,
    'aria-invalid': invalid ? 'true' : undefined,
  };
  return (
    <div class="field">
      <label for={id}>{say(locale, `dashboard.onboarding.create.${name}`)}</label>
      <span class="hint" id={`${id}-hint`}>
        {say(locale, `dashboard.onboarding.create.${name}Hint`)}
      </span>
      {invalid ? (
        <span class="error" id={`${id}-error`}>
          {say(locale, `dashboard.onboarding.create.invalid.${name}`)}
        </span>
      ) : null}
      {name === 'address' ? (
        <textarea {...common} rows={4}>
          {view.values.address ?? ''}
        </textarea>
      ) : (
        <input
          {...common}
          type={name === 'billingEmail' ? 'email' : 'text'}
          value={view.values[name] ?? ''}
          required={name === 'name' ? true : undefined}
          autocomplete={name === 'name' ? 'organization' : name === 'billingEmail' ? 'email' : 'off'}
        />
      )}
    </div>
  );
}

export function organizationNewPage(view: OrganizationNewView): string {
  const { locale, signedIn } = view;
  const refused = view.invalid !== undefined && view.invalid.size > 0;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.onboarding.create.title'),
    path: ORGANIZATION_NEW_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.onboarding.create.title')}</h1>
        <p>{say(locale, 'dashboard.onboarding.create.intro')}</p>
        <Message text={refused ? text(locale, 'dashboard.onboarding.create.problem') : undefined} kind="alert" />
        <form method="post" action={ORGANIZATION_NEW_PATH} class="stack">
          <CsrfField token={signedIn.csrfToken} />
          {organizationFieldNames.map((name) => (
            <Field locale={locale} name={name} view={view} />
          ))}
          <p class="hint">{say(locale, 'dashboard.onboarding.create.optionalLater')}</p>
          <button type="submit" class="primary">
            {say(locale, 'dashboard.onboarding.create.submit')}
          </button>
        </form>
      </>
    ),
  });
}
