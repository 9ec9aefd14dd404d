/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { DASHBOARD_PATH, LOGIN_PATH } from './nav.js';

// The pages seen signed out: sign-in, the dashboard switched off; and an error, signed in or not.

const notices = ['signed_out', 'expired'] as const;
export type SignInNotice = (typeof notices)[number];

/** A notice from `?notice=` after a redirect, when it is one of ours. */
export const noticeOf = (value: unknown): SignInNotice | undefined => notices.find((notice) => notice === value);

export function signInPage(input: {
  locale: Locale;
  csrfToken: string;
  notice?: SignInNotice | undefined;
  error?: string | undefined;
}): string {
  const { locale } = input;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.signIn.title'),
    path: LOGIN_PATH,
    body: (
      <>
        <h1>{say(locale, 'dashboard.signIn.heading')}</h1>
        <Message text={input.error} kind="alert" />
        <Message text={input.notice === undefined ? undefined : text(locale, `dashboard.notice.${input.notice}`)} />
        <p>{say(locale, 'dashboard.signIn.intro')}</p>
        <form method="post" action={LOGIN_PATH}>
          <CsrfField token={input.csrfToken} />
          <button type="submit" class="primary">
            {say(locale, 'dashboard.signIn.submit')}
          </button>
        </form>
      </>
    ),
  });
}

/** Every dashboard route's answer while no identity provider is configured. */
export function offPage(locale: Locale): string {
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.off.title'),
    path: DASHBOARD_PATH,
    body: (
      <>
        <h1>{say(locale, 'dashboard.off.title')}</h1>
        <p>{say(locale, 'dashboard.off.body')}</p>
      </>
    ),
  });
}

export function errorPage(input: {
  locale: Locale;
  status: number;
  message: string;
  path: string;
  /**
   * For a signed-in visitor, the header of every page (navigation, their name, sign-out), so they can move on; it
   * shows no test/live toggle (an error has no data) and names only their own organizations.
   */
  signedIn?: SignedInFrame | undefined;
}): string {
  const { locale, signedIn } = input;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.error.title', { status: input.status }),
    path: input.path,
    signedIn: signedIn === undefined ? undefined : { ...signedIn, environment: undefined },
    body: (
      <>
        <h1>{say(locale, 'dashboard.error.title', { status: input.status })}</h1>
        <Message text={input.message} kind="alert" />
        <p>
          <a href={DASHBOARD_PATH}>{say(locale, 'dashboard.error.home')}</a>
        </p>
      </>
    ),
  });
}
