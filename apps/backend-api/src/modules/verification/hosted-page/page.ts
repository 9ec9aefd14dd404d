import type { SessionLocale, VerificationSession, VerificationStatus } from '@platform/db';
import { escapeHtml, htmlDocument } from '@platform/http';
import { isStringKey, languageNames, type StringKey, say, sayText } from './strings.js';

// The hosted verification page as plain HTML: no script, no external asset, inline styles only (the CSP allows
// nothing else). Every text comes from the catalog (strings.ts) in the page's language, and every value that comes
// from a request or the database goes through escapeHtml.

/** The sandbox buttons, in the order the page may show them. */
export const sandboxActions = ['submit', 'approve', 'reject', 'request_resubmission'] as const;
export type SandboxAction = (typeof sandboxActions)[number];

/** The consent form's two buttons. */
export const consentAnswers = ['agree', 'decline'] as const;

/** What the page says after a form post; only these fixed codes travel in the URL, never free text. */
export const noticeCodes = [
  'submitted',
  'approved',
  'rejected',
  'resubmission_requested',
  'moved_on',
  'form_expired',
  'sandbox_off',
  'consent_recorded',
  'consent_needed',
] as const;
export type NoticeCode = (typeof noticeCodes)[number];

const problemNotices: ReadonlySet<NoticeCode> = new Set(['moved_on', 'form_expired', 'sandbox_off', 'consent_needed']);

/** The language the page is shown in, and whether `?lang=` chose it (then its links and forms keep it). */
export interface PageLanguage {
  locale: SessionLocale;
  chosen: boolean;
}

export interface SessionPageInput {
  session: VerificationSession;
  /** Sandbox controls are shown with this form token; null when the session has no sandbox. */
  sandboxFormToken: string | null;
  notice: NoticeCode | undefined;
  language: PageLanguage;
}

export function renderSessionPage({ session, sandboxFormToken, notice, language }: SessionPageInput): string {
  const { locale } = language;
  const requester = session.appName ?? sayText(locale, 'requesterFallback');
  const status = sayText(locale, `status.${session.status}`);
  const documents = (session.requiredDocuments as string[])
    .map((document) => `<li>${documentLabel(locale, document)}</li>`)
    .join('');
  const body = `
    ${languageSwitch(language)}
    ${session.appName === null ? '' : `<p class="requester">${say(locale, 'requestedBy', { app: { html: `<strong>${escapeHtml(session.appName)}</strong>` } })}</p>`}
    <h1>${say(locale, `title.${session.type}`)}</h1>
    ${session.environment === 'test' ? `<p class="badge">${say(locale, 'testBadge')}</p>` : ''}
    ${notice === undefined ? '' : noticeHtml(locale, notice)}
    <section aria-labelledby="status-heading">
      <h2 id="status-heading">${say(locale, 'statusHeading')}</h2>
      <p class="status status-${session.status}" id="session-status">${escapeHtml(status)}</p>
      <p>${say(locale, `next.${session.status}`, { app: requester })}</p>
      ${reasonHtml(locale, session)}
    </section>
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">${say(locale, 'documentsHeading')}</h2>
      <ul>${documents}</ul>
    </section>
    ${sandboxFormToken === null ? '' : sandboxHtml(session, sandboxFormToken, language)}
    ${isOpen(session.status) ? linkValidity(locale, session) : ''}`;
  return layout(locale, sayText(locale, `documentTitle.${session.type}`, { status }), body);
}

export interface ConsentPageInput {
  session: VerificationSession;
  /** Who collects the data: the session's app name, or the customer's organization. */
  controller: string | undefined;
  formToken: string;
  notice: NoticeCode | undefined;
  language: PageLanguage;
  /** Days after a final status until documents and details are deleted. */
  retentionDays: number;
}

/**
 * The consent notice (Kenya Data Protection Act 2019, docs/decisions.md#consent-before-capture), shown before
 * anything else while the session waits for documents and the person has not agreed: who collects and who
 * processes, what, why, for how long, their rights; then one form with "I agree" and "I do not agree".
 */
export function renderConsentPage(input: ConsentPageInput): string {
  const { session, formToken, notice, language, retentionDays } = input;
  const { locale } = language;
  const controller = {
    html: `<strong>${escapeHtml(input.controller ?? sayText(locale, 'requesterFallback'))}</strong>`,
  };
  const section = (id: string, heading: StringKey, paragraphs: string[]) => `
    <section aria-labelledby="${id}">
      <h2 id="${id}">${say(locale, heading)}</h2>
      ${paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n      ')}
    </section>`;
  const body = `
    ${languageSwitch(language)}
    ${session.appName === null ? '' : `<p class="requester">${say(locale, 'requestedBy', { app: { html: `<strong>${escapeHtml(session.appName)}</strong>` } })}</p>`}
    <h1>${say(locale, 'consent.heading')}</h1>
    ${session.environment === 'test' ? `<p class="badge">${say(locale, 'testBadge')}</p>` : ''}
    ${notice === undefined ? '' : noticeHtml(locale, notice)}
    <p>${say(locale, 'consent.intro')}</p>
    ${section('consent-who', 'consent.whoHeading', [say(locale, 'consent.controller', { controller }), say(locale, 'consent.processor', { controller })])}
    ${section('consent-what', 'consent.whatHeading', [say(locale, `consent.what.${session.type}`)])}
    ${section('consent-why', 'consent.whyHeading', [say(locale, `consent.why.${session.type}`, { controller })])}
    ${section('consent-keep', 'consent.keepHeading', [retentionDays === 1 ? say(locale, 'consent.keepOneDay') : say(locale, 'consent.keep', { days: retentionDays })])}
    ${section('consent-rights', 'consent.rightsHeading', [say(locale, 'consent.rights', { controller }), say(locale, 'consent.complaint')])}
    <form method="post" action="${escapeHtml(session.id)}" class="consent">
      ${hiddenFields(formToken, language)}
      <p>${say(locale, 'consent.agreeExplained')}</p>
      <div class="choices">
        <button type="submit" name="action" value="agree" class="primary">${say(locale, 'consent.agree')}</button>
        <button type="submit" name="action" value="decline" class="secondary">${say(locale, 'consent.decline')}</button>
      </div>
    </form>
    ${linkValidity(locale, session)}`;
  return layout(locale, sayText(locale, 'consent.heading'), body);
}

/** After "I do not agree": nothing was collected; the notice can be read again while the link works. */
export function renderDeclinedPage(session: VerificationSession, language: PageLanguage): string {
  const { locale } = language;
  const requester = session.appName ?? sayText(locale, 'requesterFallback');
  const again = language.chosen ? `${session.id}?lang=${locale}` : session.id;
  const body = `
    ${languageSwitch(language, 'step=declined&')}
    <h1>${say(locale, 'declined.title')}</h1>
    <p>${say(locale, 'declined.nothingCollected')}</p>
    <p>${say(locale, 'declined.changeMind', { app: requester })}</p>
    <p><a href="${escapeHtml(again)}">${say(locale, 'declined.readAgain')}</a></p>`;
  return layout(locale, sayText(locale, 'declined.title'), body);
}

export function renderNotFoundPage(language: PageLanguage): string {
  const { locale } = language;
  return layout(
    locale,
    sayText(locale, 'notFound.title'),
    `
    ${languageSwitch(language)}
    <h1>${say(locale, 'notFound.title')}</h1>
    <p>${say(locale, 'notFound.body')}</p>`,
  );
}

/**
 * Links to the page in every language, the current one marked and not a link. Relative query-only links keep
 * the page's own address, whatever path prefix serves it.
 */
function languageSwitch(language: PageLanguage, keep = ''): string {
  const links = (Object.keys(languageNames) as SessionLocale[]).map((locale) =>
    locale === language.locale
      ? `<span lang="${locale}" aria-current="true">${escapeHtml(languageNames[locale])}</span>`
      : `<a href="?${keep}lang=${locale}" hreflang="${locale}" lang="${locale}">${escapeHtml(languageNames[locale])}</a>`,
  );
  return `<nav class="languages" aria-label="${say(language.locale, 'languageNav')}">${links.join(' ')}</nav>`;
}

function documentLabel(locale: SessionLocale, document: string): string {
  const key = `document.${document}`;
  return isStringKey(key) ? say(locale, key) : escapeHtml(document);
}

function reasonHtml(locale: SessionLocale, session: VerificationSession): string {
  if (session.lastError === null || (session.status !== 'requires_input' && session.status !== 'rejected')) return '';
  return `<p class="reason"><strong>${say(locale, 'reason')}</strong> ${escapeHtml(session.lastError)}</p>`;
}

function noticeHtml(locale: SessionLocale, code: NoticeCode): string {
  const problem = problemNotices.has(code);
  return `<p class="notice${problem ? ' notice-problem' : ''}" role="${problem ? 'alert' : 'status'}">${say(locale, `notice.${code}`)}</p>`;
}

function linkValidity(locale: SessionLocale, session: VerificationSession): string {
  return `<p class="small">${say(locale, 'linkValidUntil', { time: formatTime(locale, session.expiresAt) })}</p>`;
}

const isOpen = (status: VerificationStatus) =>
  status === 'pending' || status === 'requires_input' || status === 'processing';

/** The buttons a tester can use from the session's current status. */
export function sandboxActionsFor(status: VerificationStatus): SandboxAction[] {
  if (status === 'pending' || status === 'requires_input') return ['submit'];
  if (status === 'processing') return ['approve', 'reject', 'request_resubmission'];
  return [];
}

function sandboxHtml(session: VerificationSession, token: string, language: PageLanguage): string {
  const { locale } = language;
  const actions = sandboxActionsFor(session.status);
  const intro = say(locale, session.environment === 'test' ? 'sandbox.introTest' : 'sandbox.introLive');
  const forms =
    actions.length === 0
      ? `<p>${say(locale, 'sandbox.finished')}</p>`
      : actions.map((action) => sandboxForm(session.id, token, action, language)).join('');
  return `
    <section class="sandbox" aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">${say(locale, 'sandbox.heading')}</h2>
      <p>${intro}</p>
      ${forms}
    </section>`;
}

const actionButtons: Record<SandboxAction, { reasonLabel?: StringKey; style: string }> = {
  submit: { style: 'primary' },
  approve: { style: 'primary' },
  reject: { reasonLabel: 'sandbox.rejectReason', style: 'danger' },
  request_resubmission: { reasonLabel: 'sandbox.resubmissionReason', style: 'secondary' },
};

function sandboxForm(sessionId: string, token: string, action: SandboxAction, language: PageLanguage): string {
  const { reasonLabel, style } = actionButtons[action];
  const reasonId = `${action}-reason`;
  // A relative action posts back to this page's own address, whatever path prefix serves it.
  return `
      <form method="post" action="${escapeHtml(sessionId)}">
        ${hiddenFields(token, language)}
        <input type="hidden" name="action" value="${action}">
        ${
          reasonLabel === undefined
            ? ''
            : `<label for="${reasonId}">${say(language.locale, reasonLabel)}</label>
        <input type="text" id="${reasonId}" name="reason" maxlength="500" autocomplete="off">`
        }
        <button type="submit" class="${style}">${say(language.locale, `sandbox.${action}`)}</button>
      </form>`;
}

/** The form token, and the language `?lang=` chose so the page after the post keeps it. */
function hiddenFields(token: string, language: PageLanguage): string {
  const lang = language.chosen ? `\n        <input type="hidden" name="lang" value="${language.locale}">` : '';
  return `<input type="hidden" name="token" value="${escapeHtml(token)}">${lang}`;
}

const timeFormats: Record<SessionLocale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  sw: new Intl.DateTimeFormat('sw-KE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

function formatTime(locale: SessionLocale, date: Date): string {
  return `${timeFormats[locale].format(date)} UTC`;
}

function layout(lang: SessionLocale, title: string, body: string): string {
  return htmlDocument({ title, styles, body, lang });
}

// Colours meet WCAG AA contrast on their backgrounds; focus is always visible.
const styles = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f4f5f7;color:#1f2328;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:38rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.6rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.requester{margin:0;color:#57606a}
.badge{display:inline-block;margin:0 0 .5rem;padding:.1rem .6rem;border:1px solid #9a6700;border-radius:999px;color:#7d4e00;background:#fff8c5;font-size:.875rem}
.status{display:inline-block;margin:0;padding:.25rem .75rem;border-radius:6px;font-weight:600;border:1px solid #d0d7de}
.status-verified{background:#dafbe1;color:#116329;border-color:#4ac26b}
.status-rejected,.status-expired,.status-canceled{background:#ffebe9;color:#a40e26;border-color:#ff8182}
.status-processing,.status-pending,.status-requires_input{background:#ddf4ff;color:#0a3069;border-color:#54aeff}
.reason{padding:.5rem .75rem;background:#fff8c5;border-left:4px solid #9a6700}
.notice{padding:.5rem .75rem;border-radius:6px;background:#dafbe1;color:#116329}
.notice-problem{background:#ffebe9;color:#a40e26}
.sandbox{margin-top:1.5rem;padding:1rem;border:2px dashed #8c959f;border-radius:8px}
.sandbox h2{margin-top:0}
form{margin:.75rem 0}
label{display:block;margin-bottom:.25rem;font-weight:600}
input[type=text]{display:block;width:100%;margin-bottom:.5rem;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px}
button{padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:6px;border:1px solid transparent;cursor:pointer}
button.primary{background:#1f6feb;color:#fff}
button.danger{background:#cf222e;color:#fff}
button.secondary{background:#f6f8fa;color:#1f2328;border-color:#8c959f}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.small{font-size:.875rem;color:#57606a}
a{color:#0969da}
.languages{display:flex;justify-content:flex-end;gap:1rem;margin:0 0 .5rem;font-size:.875rem}
.languages [aria-current]{font-weight:600}
.choices{display:flex;flex-wrap:wrap;gap:.75rem}
button{min-height:2.75rem}
@media (max-width:40rem){main{margin:0;border:0;border-radius:0;padding:1rem}}
`;
