/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Child, HtmlPage, type Locale, languageNames, locales, renderPage, say, text } from '@platform/templates';
import { DASHBOARD_PATH, dashboardNav, LOGOUT_PATH } from './nav.js';
import { DASHBOARD_STYLES } from './styles.js';

// The frame of every dashboard page (docs/decisions.md#dashboard-sign-in): a skip link, the header with the product
// name, the signed-in user and the sign-out form, the navigation of the pages that exist, the language switch
// (links, so it works without script), then the page in `<main>`. Every text from the catalogs in both languages.

export interface SignedInFrame {
  /** The name shown in the header: the profile's name, else its address. */
  userLabel: string;
  csrfToken: string;
}

export interface FrameProps {
  locale: Locale;
  title: string;
  /** The page's own path, for `aria-current` and the language links. */
  path: string;
  signedIn?: SignedInFrame | undefined;
  body: Child;
}

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export function Message({ text: message, kind = 'status' }: { text: string | undefined; kind?: 'status' | 'alert' }) {
  if (message === undefined) return null;
  return (
    <p class={`message ${kind}`} role={kind}>
      {message}
    </p>
  );
}

function LanguageSwitch({ locale, path }: { locale: Locale; path: string }) {
  return (
    <nav aria-label={text(locale, 'dashboard.language.label')}>
      <ul class="langs">
        {locales.map((option) => (
          <li>
            <a
              href={`${path}?lang=${option}`}
              hreflang={option}
              lang={option}
              aria-current={option === locale ? 'true' : undefined}
            >
              {languageNames[option]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SiteHeader({ locale, path, signedIn }: Omit<FrameProps, 'title' | 'body'>) {
  return (
    <header class="site">
      <div class="bar">
        <p class="brand">
          <a href={DASHBOARD_PATH}>{say(locale, 'dashboard.productName')}</a>
        </p>
        <div class="who">
          {signedIn === undefined ? null : (
            <>
              <span class="user">
                {say(locale, 'dashboard.signedInAs', { user: <strong>{signedIn.userLabel}</strong> })}
              </span>
              <form method="post" action={LOGOUT_PATH} class="inline">
                <CsrfField token={signedIn.csrfToken} />
                <button type="submit" class="link">
                  {say(locale, 'dashboard.signOut')}
                </button>
              </form>
            </>
          )}
          <LanguageSwitch locale={locale} path={path} />
        </div>
      </div>
      {signedIn === undefined ? null : (
        <nav class="bar" aria-label={text(locale, 'dashboard.nav.label')}>
          <ul>
            {dashboardNav.map((item) => (
              <li>
                <a href={item.path} aria-current={item.path === path ? 'page' : undefined}>
                  {say(locale, item.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}

export function dashboardPage({ locale, title, path, signedIn, body }: FrameProps): string {
  return renderPage(
    <HtmlPage
      title={text(locale, 'dashboard.pageTitle', { page: title })}
      styles={DASHBOARD_STYLES}
      lang={locale}
      mainId="main"
      before={
        <>
          <a class="skip" href="#main">
            {say(locale, 'dashboard.skipToContent')}
          </a>
          <SiteHeader locale={locale} path={path} signedIn={signedIn} />
        </>
      }
    >
      {body}
    </HtmlPage>,
  );
}
