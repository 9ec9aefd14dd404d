/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import type { EditableProfile } from '../../accounts/index.js';
import type { FormRefusal } from '../account-forms.js';
import { Fact, Field } from './account-form.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { NameFields, nameFieldLabels } from './name-fields.js';
import { PROFILE_PATH } from './nav.js';

// The Profile page (docs/decisions.md#dashboard-pages): the user's own details, the identity verification said in
// words, and the form that changes what PATCH /v1/accounts/me changes (the address is the sign-in account's).

/** What the form shows: the profile's values, or those just posted when the save was refused. */
export interface ProfileFormValues {
  firstName: string;
  lastName: string;
  phone: string;
  dob: string;
}

export interface ProfileView {
  locale: Locale;
  signedIn: SignedInFrame;
  profile: EditableProfile;
  values: ProfileFormValues;
  notice?: string | undefined;
  refusal?: FormRefusal | undefined;
}

/** The form's values as the profile has them now. */
export function profileFormValues(profile: EditableProfile): ProfileFormValues {
  return {
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    phone: profile.phone ?? '',
    dob: profile.dob ?? '',
  };
}

/** The labels of the form's fields, by field name: the page and its refusals name them alike. */
export function profileFieldLabels(locale: Locale): Record<keyof ProfileFormValues, string> {
  return {
    ...nameFieldLabels(locale),
    phone: text(locale, 'dashboard.profile.phone'),
    dob: text(locale, 'dashboard.profile.dob'),
  };
}

export function profilePage(view: ProfileView): string {
  const { locale, profile, values } = view;
  const problems = view.refusal?.problems ?? {};
  const labels = profileFieldLabels(locale);
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.profile.title'),
    path: PROFILE_PATH,
    signedIn: view.signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.profile.title')}</h1>
        <p>{say(locale, 'dashboard.profile.intro')}</p>
        <Message text={view.notice} />
        <Message text={view.refusal?.message} kind="alert" />
        <h2>{say(locale, 'dashboard.profile.details')}</h2>
        <dl class="facts">
          <Fact label={text(locale, 'dashboard.profile.email')} value={profile.email} unset="" />
          <Fact
            label={text(locale, 'dashboard.profile.kycStatus')}
            value={text(locale, `dashboard.profile.kyc.${profile.kycStatus}`)}
            unset=""
          />
        </dl>
        <p class="hint">{say(locale, 'dashboard.profile.emailHint')}</p>
        <h2>{say(locale, 'dashboard.profile.edit')}</h2>
        <form method="post" action={PROFILE_PATH} class="fields">
          <CsrfField token={view.signedIn.csrfToken} />
          <NameFields locale={locale} idPrefix="profile" values={values} problems={problems} />
          <Field
            id="profile-phone"
            name="phone"
            type="tel"
            label={labels.phone}
            value={values.phone}
            hint={text(locale, 'dashboard.profile.phoneHint')}
            problem={problems['phone']}
            maxlength={40}
            autocomplete="tel"
          />
          <Field
            id="profile-dob"
            name="dob"
            type="date"
            label={labels.dob}
            value={values.dob}
            problem={problems['dob']}
            autocomplete="bday"
          />
          <div class="actions">
            <button type="submit" class="primary">
              {say(locale, 'dashboard.profile.save')}
            </button>
          </div>
        </form>
      </>
    ),
  });
}
