/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { SessionLocale, VerificationSession } from '@platform/db';
import { type Child, HtmlPage, languageNames, locales, renderPage, say, text } from '@platform/templates';
import { isOpen, keptQuery, type NoticeCode, type PageLanguage, problemNotices } from './page.js';
import { PAGE_STYLES } from './page-styles.js';
import { type SdkEvent, SdkEventHead } from './sdk.js';

// The parts every step of the hosted page shares: the frame, the language switch, the requester, the notices, the
// forms' hidden fields, the way back to the app. Every text comes from the catalog in the page's language, and every
// value is escaped by the template layer (docs/decisions.md#html-templates).

/** A whole page of the hosted verification page, in its language. */
export function renderHostedPage(locale: SessionLocale, title: string, body: Child, head?: Child): string {
  return renderPage(
    <HtmlPage title={title} styles={PAGE_STYLES} lang={locale} head={head}>
      {body}
    </HtmlPage>,
  );
}

/** The head of a page that reports `event` to the SDK, when the SDK opened it; else nothing. */
export function sdkHead(language: PageLanguage, event: SdkEvent | undefined): Child {
  return language.sdk === undefined || event === undefined ? null : (
    <SdkEventHead target={language.sdk} event={event} />
  );
}

/**
 * Links to the page in every language, the current one marked and not a link. Relative query-only links keep
 * the page's own address, whatever path prefix serves it, and the SDK's mode and origin.
 */
export function LanguageSwitch({ language }: { language: PageLanguage }) {
  const links = locales.map((locale) =>
    locale === language.locale ? (
      <span lang={locale} aria-current="true">
        {languageNames[locale]}
      </span>
    ) : (
      <a href={`?${keptQuery({ ...language, locale, chosen: true })}`} hreflang={locale} lang={locale}>
        {languageNames[locale]}
      </a>
    ),
  );
  return (
    <nav class="languages" aria-label={text(language.locale, 'verify.languageNav')}>
      {links.flatMap((link, index) => (index === 0 ? [link] : [' ', link]))}
    </nav>
  );
}

/** Who asked for the verification, when the session names its app. */
export function Requester({ session, locale }: { session: VerificationSession; locale: SessionLocale }) {
  if (session.appName === null) return null;
  return <p class="requester">{say(locale, 'verify.requestedBy', { app: <strong>{session.appName}</strong> })}</p>;
}

export function TestBadge({ session, locale }: { session: VerificationSession; locale: SessionLocale }) {
  return session.environment === 'test' ? <p class="badge">{say(locale, 'verify.testBadge')}</p> : null;
}

export function Notice({ locale, code }: { locale: SessionLocale; code: NoticeCode | undefined }) {
  if (code === undefined) return null;
  const problem = problemNotices.has(code);
  return (
    <p class={problem ? 'notice notice-problem' : 'notice'} role={problem ? 'alert' : 'status'}>
      {say(locale, `verify.notice.${code}`)}
    </p>
  );
}

export function LinkValidity({ locale, session }: { locale: SessionLocale; session: VerificationSession }) {
  return <p class="small">{say(locale, 'verify.linkValidUntil', { time: formatTime(locale, session.expiresAt) })}</p>;
}

/** The form token, and the kept query (a chosen language, the SDK's mode and origin) so the page after the post keeps it. */
export function HiddenFields({ token, language }: { token: string; language: PageLanguage }) {
  return (
    <>
      <input type="hidden" name="token" value={token} />
      {[...new URLSearchParams(keptQuery(language))].map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * On a final page, the way back to the customer's app when the session has a returnUrl (https, checked at create).
 * In an iframe it leaves the frame: the app's page belongs in the whole tab, not inside its own frame.
 */
export function ContinueLink(props: { language: PageLanguage; session: VerificationSession; requester: string }) {
  const { language, session, requester } = props;
  if (isOpen(session.status) || session.returnUrl === null) return null;
  return (
    <p>
      <a class="button primary" href={session.returnUrl} target={language.sdk?.mode === 'embed' ? '_top' : undefined}>
        {say(language.locale, 'verify.final.continue', { app: requester })}
      </a>
    </p>
  );
}

const timeFormats: Record<SessionLocale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  sw: new Intl.DateTimeFormat('sw-KE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

function formatTime(locale: SessionLocale, date: Date): string {
  return `${timeFormats[locale].format(date)} UTC`;
}

const sizeFormats: Record<SessionLocale, { kb: Intl.NumberFormat; mb: Intl.NumberFormat }> = {
  en: {
    kb: new Intl.NumberFormat('en-GB', { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }),
    mb: new Intl.NumberFormat('en-GB', { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }),
  },
  sw: {
    kb: new Intl.NumberFormat('sw-KE', { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }),
    mb: new Intl.NumberFormat('sw-KE', { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }),
  },
};

/** A file's size for people: kB under a megabyte, else MB (decimal units, as phones show them). */
export function formatSize(locale: SessionLocale, bytes: number): string {
  const formats = sizeFormats[locale];
  return bytes < 1_000_000 ? formats.kb.format(Math.max(1, Math.round(bytes / 1000))) : formats.mb.format(bytes / 1e6);
}
