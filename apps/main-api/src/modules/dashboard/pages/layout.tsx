/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import { type Child, HtmlPage, type Locale, languageNames, locales, renderPage, say, text } from '@platform/templates';
import { allows } from '../../organizations/index.js';
import type { DashboardContext, DashboardOrganization } from '../context.js';
import { DASHBOARD_PATH, dashboardNav, LOGOUT_PATH, NOTIFICATIONS_PATH, showsEnvironment } from './nav.js';
import { DASHBOARD_STYLES } from './styles.js';

// The frame of every dashboard page (docs/decisions.md#dashboard-sign-in): a skip link, the header with the product
// name, the signed-in user and the sign-out form, the navigation of the pages that exist, the language switch
// (links, so it works without script), then the page in `<main>`. Every text from the catalogs in both languages.

export interface SignedInFrame {
  /** The name shown in the header: the profile's name, else its address. */
  userLabel: string;
  csrfToken: string;
  /** The organizations to switch between and the one shown: the navigation lists what its role may open. */
  organizations?: readonly DashboardOrganization[];
  organization?: DashboardOrganization | null;
  /** Test or live data, as chosen; the toggle shows it only on the pages whose data is of one (`showsEnvironment`). */
  environment?: ApiKeyEnvironment;
  /** False on the "complete your profile" form: no other page opens before it. */
  navigation?: boolean;
  /** The user's unread notifications: a count beside Notifications in the navigation. */
  unreadNotifications?: number;
}

/** The frame of a page the page guard let through. */
export function frameOf(context: DashboardContext): SignedInFrame {
  const { userLabel, csrfToken, organizations, organization, environment, unreadNotifications } = context;
  return { userLabel, csrfToken, organizations, organization, environment, unreadNotifications };
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
      {signedIn === undefined || signedIn.navigation === false ? null : (
        <nav class="bar" aria-label={text(locale, 'dashboard.nav.label')}>
          <ul>
            {navFor(signedIn).map((item) => (
              <li>
                <a href={item.path} aria-current={item.path === path ? 'page' : undefined}>
                  {say(locale, item.label)}
                  {item.path === NOTIFICATIONS_PATH ? (
                    <UnreadCount locale={locale} count={signedIn.unreadNotifications} />
                  ) : null}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {signedIn === undefined ? null : <OrganizationBar locale={locale} path={path} signedIn={signedIn} />}
    </header>
  );
}

/** The unread count beside Notifications: the number seen, the words read aloud. */
function UnreadCount({ locale, count = 0 }: { locale: Locale; count?: number | undefined }) {
  if (count === 0) return null;
  return (
    <>
      {' '}
      <span class="badge" aria-hidden="true">
        {count}
      </span>
      <span class="vh">{say(locale, 'dashboard.notifications.navUnread', { count })}</span>
    </>
  );
}

/** The pages the navigation lists: those of the user's own, and those the role in the organization shown may open. */
function navFor(signedIn: SignedInFrame) {
  const role = signedIn.organization?.role;
  return dashboardNav.filter(
    (item) => item.requires === undefined || (role !== undefined && allows(role, item.requires)),
  );
}

/** The organization switcher (a GET form, so it works without script) and the test/live toggle (links). */
function OrganizationBar({ locale, path, signedIn }: { locale: Locale; path: string; signedIn: SignedInFrame }) {
  const { organizations = [], organization, environment } = signedIn;
  if (organization === undefined || organization === null) return null;
  return (
    <div class="bar org">
      {organizations.length > 1 ? (
        <form method="get" action={path} class="switcher">
          <label for="org-switch">{say(locale, 'dashboard.switcher.label')}</label>
          <select id="org-switch" name="org">
            {organizations.map((each) => (
              <option value={each.id} selected={each.id === organization.id}>
                {each.name}
              </option>
            ))}
          </select>
          <button type="submit">{say(locale, 'dashboard.switcher.submit')}</button>
        </form>
      ) : (
        <p class="orgname">
          {say(locale, 'dashboard.switcher.label')}: <strong>{organization.name}</strong>
        </p>
      )}
      {environment === undefined || !showsEnvironment(path) ? null : (
        <nav aria-label={text(locale, 'dashboard.environment.label')}>
          <ul class="toggle">
            {(['test', 'live'] as const).map((option) => (
              <li>
                <a href={`${path}?env=${option}`} aria-current={option === environment ? 'true' : undefined}>
                  {say(locale, `dashboard.environment.${option}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
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
          {signedIn?.environment === 'test' && signedIn.organization && showsEnvironment(path) ? (
            <p class="testdata">{say(locale, 'dashboard.environment.testBanner')}</p>
          ) : null}
        </>
      }
    >
      {body}
    </HtmlPage>,
  );
}
