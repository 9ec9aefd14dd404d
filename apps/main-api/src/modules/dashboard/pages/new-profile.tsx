/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import type { FormRefusal } from '../account-forms.js';
import { Fact } from './account-form.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { NameFields } from './name-fields.js';
import { NEW_PROFILE_PATH } from './nav.js';

// "Complete your profile" (docs/decisions.md#dashboard-pages): a user signed in without a profile, because the
// identity provider gave no name, gives their first and last name; the address is the provider's, shown as it is.

export interface NewProfileView {
  locale: Locale;
  signedIn: SignedInFrame;
  email: string;
  values: { firstName: string; lastName: string };
  refusal?: FormRefusal | undefined;
}

export function newProfilePage(view: NewProfileView): string {
  const { locale, values } = view;
  const problems = view.refusal?.problems ?? {};
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.newProfile.title'),
    path: NEW_PROFILE_PATH,
    signedIn: { ...view.signedIn, navigation: false },
    body: (
      <>
        <h1>{say(locale, 'dashboard.newProfile.title')}</h1>
        <p>{say(locale, 'dashboard.newProfile.intro')}</p>
        <Message text={view.refusal?.message} kind="alert" />
        <dl class="facts">
          <Fact label={text(locale, 'dashboard.profile.email')} value={view.email} unset="" />
        </dl>
        <p class="hint">{say(locale, 'dashboard.profile.emailHint')}</p>
        <form method="post" action={NEW_PROFILE_PATH} class="fields">
          <CsrfField token={view.signedIn.csrfToken} />
          <NameFields locale={locale} idPrefix="new" values={values} problems={problems} />
          <div class="actions">
            <button type="submit" class="primary">
              {say(locale, 'dashboard.newProfile.submit')}
            </button>
          </div>
        </form>
      </>
    ),
  });
}
