import {
  type DocumentKind,
  idTypes,
  type SessionLocale,
  type VerificationDocument,
  type VerificationSession,
  type VerificationStatus,
} from '@platform/db';
import { escapeHtml, htmlDocument } from '@platform/http';
import { type CaptureField, type FieldError, type FieldProblem, formKindsOf, type PageResend } from './capture.js';
import type { Draft } from './draft.js';
import { type SdkTarget, sdkEventHead, sessionPageEvent } from './sdk.js';
import { isStringKey, languageNames, type StringKey, say, sayText } from './strings.js';

// The hosted verification page as plain HTML: no external asset, inline styles only, and no script but the one that
// tells the front-end SDK what happened, on a page the SDK opened from an allowed origin (sdk.ts; the CSP allows its
// hash and nothing else). Every text comes from the catalog (strings.ts) in the page's language, and every value that comes
// from a request or the database goes through escapeHtml.

/** The sandbox buttons, in the order the page may show them. */
export const sandboxActions = ['submit', 'approve', 'reject', 'request_resubmission'] as const;
export type SandboxAction = (typeof sandboxActions)[number];

/** The consent form's two buttons. */
export const consentAnswers = ['agree', 'decline'] as const;

/** The review step's two buttons. */
export const reviewAnswers = ['confirm', 'change'] as const;

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
  'upload_failed',
] as const;
export type NoticeCode = (typeof noticeCodes)[number];

const problemNotices: ReadonlySet<NoticeCode> = new Set([
  'moved_on',
  'form_expired',
  'sandbox_off',
  'consent_needed',
  'upload_failed',
]);

/** How often the page of a processing session reloads itself, in seconds (a meta refresh: no script). */
const REFRESH_SECONDS = 10;

/**
 * The language the page is shown in, and whether `?lang=` chose it; and the front-end SDK's mode and origin when the
 * SDK opened it from an allowed origin. The page's links and forms keep both (`keptQuery`).
 */
export interface PageLanguage {
  locale: SessionLocale;
  chosen: boolean;
  sdk?: SdkTarget | undefined;
}

/** The query every link, form and redirect of the page carries on: `lang` when chosen, `sdk` and `origin`. */
export function keptQuery(language: PageLanguage): string {
  const query = new URLSearchParams();
  if (language.chosen) query.set('lang', language.locale);
  if (language.sdk !== undefined) {
    query.set('sdk', language.sdk.mode);
    query.set('origin', language.sdk.origin);
  }
  return query.toString();
}

/** The page's own address (relative: `<id>`) with the kept query. */
function pageUrl(session: VerificationSession, language: PageLanguage): string {
  const kept = keptQuery(language);
  return kept === '' ? session.id : `${session.id}?${kept}`;
}

/** The head of a page that reports `event` to the SDK, when the SDK opened it; else nothing. */
function sdkHead(language: PageLanguage, event: Parameters<typeof sdkEventHead>[1] | undefined): string {
  return language.sdk === undefined || event === undefined ? '' : sdkEventHead(language.sdk, event);
}

export interface SessionPageInput {
  session: VerificationSession;
  /** Sandbox controls are shown with this form token; null when the session has no sandbox. */
  sandboxFormToken: string | null;
  notice: NoticeCode | undefined;
  language: PageLanguage;
  /** The capture form, while the session takes documents. */
  capture?: CaptureFormInput | undefined;
}

/**
 * What the capture form shows: its token, the errors of the last upload, what was typed, what was received, and
 * what a requires_input decision asks to be sent again (then only those inputs).
 */
interface CaptureFormInput {
  formToken: string;
  errors: FieldError[];
  draft: Draft;
  documents: VerificationDocument[];
  resend: PageResend | undefined;
}

export function renderSessionPage(input: SessionPageInput): string {
  const { session, sandboxFormToken, notice, language, capture } = input;
  const { locale } = language;
  const requester = session.appName ?? sayText(locale, 'requesterFallback');
  const status = sayText(locale, `status.${session.status}`);
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
    ${documentsHtml(locale, session)}
    ${capture === undefined ? '' : captureFormHtml(session, capture, language)}
    ${sandboxFormToken === null ? '' : sandboxHtml(session, sandboxFormToken, language)}
    ${continueHtml(language, session, requester)}
    ${isOpen(session.status) ? linkValidity(locale, session) : ''}`;
  const errorCount = capture?.errors.length ?? 0;
  const title = sayText(locale, `documentTitle.${session.type}`, { status });
  return layout(locale, errorCount > 0 ? `${sayText(locale, 'capture.errorTitle')} ${title}` : title, body, {
    head:
      (session.status === 'processing' ? refreshHead(session, language) : '') +
      sdkHead(language, sessionPageEvent(session, notice === 'submitted')),
  });
}

/**
 * The documents the session needs, or, while a requires_input decision names documents, only those: the ones to
 * send again (docs/decisions.md#resubmission). Director IDs asked for again are all sent again.
 */
function documentsHtml(locale: SessionLocale, session: VerificationSession): string {
  const resend = session.status === 'requires_input' ? (session.resubmitDocuments ?? []) : [];
  if (resend.length === 0) {
    const documents = (session.requiredDocuments as string[])
      .map((document) => `<li>${documentLabel(locale, document)}</li>`)
      .join('');
    return `
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">${say(locale, 'documentsHeading')}</h2>
      <ul>${documents}</ul>
    </section>`;
  }
  const kinds = formKindsOf(session).filter((kind) => resend.includes(kind));
  return `
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">${say(locale, 'documentsHeading.resend')}</h2>
      <ul id="resend-documents">${kinds.map((kind) => `<li>${say(locale, `kindName.${kind}`)}</li>`).join('')}</ul>
      ${kinds.includes('director_id') ? `<p>${say(locale, 'resend.directors')}</p>` : ''}
    </section>`;
}

/** A processing session's page reloads itself without its notice, so it shows the result when there is one. */
function refreshHead(session: VerificationSession, language: PageLanguage): string {
  return `\n<meta http-equiv="refresh" content="${REFRESH_SECONDS}; url=${escapeHtml(pageUrl(session, language))}">`;
}

/**
 * On a final page, the way back to the customer's app when the session has a returnUrl (https, checked at create).
 * In an iframe it leaves the frame: the app's page belongs in the whole tab, not inside its own frame.
 */
function continueHtml(language: PageLanguage, session: VerificationSession, requester: string): string {
  if (isOpen(session.status) || session.returnUrl === null) return '';
  const target = language.sdk?.mode === 'embed' ? ' target="_top"' : '';
  return `<p><a class="button primary" href="${escapeHtml(session.returnUrl)}"${target}>${say(language.locale, 'final.continue', { app: requester })}</a></p>`;
}

const fileAccept: Record<'kyc' | 'kyb', string> = { kyc: 'image/*', kyb: 'image/*,application/pdf' };

/**
 * The capture form: the details, then one file input per document kind (director IDs: several), posted as
 * multipart to `<id>/documents`. Errors are listed first, each a link to its field, and said again at the field.
 */
function captureFormHtml(session: VerificationSession, input: CaptureFormInput, language: PageLanguage): string {
  const { locale } = language;
  const { errors, draft, documents, resend } = input;
  const errorOf = (field: CaptureField) => errors.find((error) => error.field === field);
  const errorText = (field: CaptureField, problem: FieldProblem) =>
    say(locale, problemKey(session.type, field, problem));
  const described = (field: CaptureField, hint = false) => {
    const ids = [hint ? `hint-${field}` : '', errorOf(field) === undefined ? '' : `error-${field}`].filter(Boolean);
    const invalid = errorOf(field) === undefined ? '' : ' aria-invalid="true"';
    return `${ids.length === 0 ? '' : ` aria-describedby="${ids.join(' ')}"`}${invalid}`;
  };
  const errorHtml = (field: CaptureField) => {
    const error = errorOf(field);
    return error === undefined
      ? ''
      : `<p class="field-error" id="error-${field}">${errorText(field, error.problem)}</p>`;
  };
  const summary =
    errors.length === 0
      ? ''
      : `<div class="error-summary" role="alert" aria-labelledby="error-summary-heading">
        <h3 id="error-summary-heading">${say(locale, 'capture.errorSummary')}</h3>
        <ul>${errors.map(({ field, problem }) => `<li><a href="#field-${field}">${errorText(field, problem)}</a></li>`).join('')}</ul>
      </div>`;
  const text = (field: 'idNumber' | 'registrationNumber' | 'companyName', label: StringKey, max: number) => `
        <div class="field">
          <label for="field-${field}">${say(locale, label)}</label>
          ${errorHtml(field)}
          <input type="text" id="field-${field}" name="${field}" maxlength="${max}" autocomplete="off" spellcheck="false" value="${escapeHtml(draft[field] ?? '')}"${described(field)}>
        </div>`;
  const details = resend?.detailsKept
    ? `<p>${say(locale, 'capture.detailsKept')}</p>`
    : session.type === 'kyc'
      ? `
      <fieldset>
        <legend>${say(locale, 'capture.detailsLegend.kyc')}</legend>
        <div class="field">
          <label for="field-idType">${say(locale, 'capture.idType')}</label>
          ${errorHtml('idType')}
          <select id="field-idType" name="idType"${described('idType')}>
            <option value="">${say(locale, 'capture.choose')}</option>
            ${idTypes.map((idType) => `<option value="${idType}"${draft.idType === idType ? ' selected' : ''}>${say(locale, `idType.${idType}`)}</option>`).join('')}
          </select>
        </div>
        ${text('idNumber', 'capture.idNumber', 20)}
      </fieldset>`
      : `
      <fieldset>
        <legend>${say(locale, 'capture.detailsLegend.kyb')}</legend>
        ${text('registrationNumber', 'capture.registrationNumber', 30)}
        ${text('companyName', 'capture.companyName', 200)}
      </fieldset>`;
  const fileInput = (kind: DocumentKind) => {
    // While documents are sent again, "received" means sent again: the earlier ones are being replaced.
    const received = (resend?.sentAgain ?? documents).filter((document) => document.kind === kind);
    const hint =
      received.length === 0
        ? ''
        : `<p class="hint" id="hint-${kind}">${say(locale, 'capture.received', { files: received.map((document) => formatSize(locale, document.sizeBytes)).join(', ') })}</p>`;
    const capture = kind === 'selfie' ? ' capture="user"' : session.type === 'kyc' ? ' capture="environment"' : '';
    return `
        <div class="field">
          <label for="field-${kind}">${say(locale, `kind.${kind}`)}</label>
          ${hint}
          ${errorHtml(kind)}
          <input type="file" id="field-${kind}" name="${kind}" accept="${fileAccept[session.type]}"${capture}${kind === 'director_id' ? ' multiple' : ''}${described(kind, hint !== '')}>
        </div>`;
  };
  return `
    <section aria-labelledby="capture-heading">
      <h2 id="capture-heading">${say(locale, 'capture.heading')}</h2>
      ${summary}
      <p>${say(locale, `capture.intro.${session.type}`)}</p>
      ${session.status !== 'requires_input' ? '' : `<p>${say(locale, resend === undefined ? 'capture.resend' : 'capture.resendOnly')}</p>`}
      <form method="post" action="${escapeHtml(session.id)}/documents" enctype="multipart/form-data" class="capture">
        ${hiddenFields(input.formToken, language)}
        ${details}
        <fieldset>
          <legend>${say(locale, 'capture.filesLegend')}</legend>
          ${(resend?.kinds ?? formKindsOf(session)).map(fileInput).join('')}
        </fieldset>
        <button type="submit" class="primary">${say(locale, 'capture.send')}</button>
      </form>
    </section>`;
}

function problemKey(type: 'kyc' | 'kyb', field: CaptureField, problem: FieldProblem): StringKey {
  if (problem === 'unsupported_media_type') return `error.unsupported_media_type.${type}`;
  if (problem === 'required' || problem === 'invalid') {
    const key = `error.${problem}.${field}`;
    if (isStringKey(key)) return key;
    return problem === 'required' ? 'error.required.file' : 'error.unreadable';
  }
  return `error.${problem}`;
}

export interface ReviewPageInput {
  session: VerificationSession;
  formToken: string;
  /** The sealed draft, posted back with the choice. */
  sealedDraft: string;
  draft: Draft;
  documents: VerificationDocument[];
  /** What a requires_input decision asks to be sent again: the review then shows what is sent and what is kept. */
  resend: PageResend | undefined;
  language: PageLanguage;
}

/**
 * The review step: what was typed and which documents were received (kind and size, never the images). When a
 * decision asked for documents again, the documents sent again and those kept from before, and the details only
 * when new ones were typed (else that the earlier ones are kept).
 */
export function renderReviewPage(input: ReviewPageInput): string {
  const { session, draft, documents, resend, language } = input;
  const { locale } = language;
  const row = (label: StringKey, value: string) => `<dt>${say(locale, label)}</dt><dd>${value}</dd>`;
  const typed = Object.keys(draft).length > 0;
  const details =
    !typed && resend?.detailsKept
      ? ''
      : session.type === 'kyc'
        ? row('capture.idType', draft.idType === undefined ? '' : say(locale, idTypeKey(draft.idType))) +
          row('capture.idNumber', escapeHtml(draft.idNumber?.trim().toUpperCase() ?? ''))
        : row('capture.registrationNumber', escapeHtml(draft.registrationNumber?.trim().toUpperCase() ?? '')) +
          (draft.companyName === undefined ? '' : row('capture.companyName', escapeHtml(draft.companyName.trim())));
  // In the form's order (front, back, selfie), whatever order they arrived in.
  const order = formKindsOf(session);
  const items = (list: readonly VerificationDocument[]) =>
    [...list]
      .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
      .map(
        (document) =>
          `<li>${say(locale, `kindName.${document.kind}`)}: ${escapeHtml(formatSize(locale, document.sizeBytes))}</li>`,
      )
      .join('');
  const documentList = (id: string, heading: StringKey, list: readonly VerificationDocument[]) => `
    <section aria-labelledby="${id}">
      <h2 id="${id}">${say(locale, heading)}</h2>
      <ul>${items(list)}</ul>
    </section>`;
  const sentAgain = resend?.sentAgain ?? [];
  const kept = documents.filter((document) => !sentAgain.includes(document));
  const documentLists =
    resend === undefined
      ? documentList('review-documents', 'review.documents', documents)
      : documentList('review-sent-again', 'review.sentAgain', sentAgain) +
        (kept.length === 0 ? '' : documentList('review-kept', 'review.kept', kept));
  const body = `
    ${session.appName === null ? '' : `<p class="requester">${say(locale, 'requestedBy', { app: { html: `<strong>${escapeHtml(session.appName)}</strong>` } })}</p>`}
    <h1>${say(locale, 'review.heading')}</h1>
    ${session.environment === 'test' ? `<p class="badge">${say(locale, 'testBadge')}</p>` : ''}
    <p>${say(locale, 'review.intro')}</p>
    <section aria-labelledby="review-details">
      <h2 id="review-details">${say(locale, `capture.detailsLegend.${session.type}`)}</h2>
      ${details === '' ? `<p>${say(locale, 'capture.detailsKept')}</p>` : `<dl>${details}</dl>`}
    </section>
    ${documentLists}
    <form method="post" action="${escapeHtml(session.id)}">
      ${hiddenFields(input.formToken, language)}
      <input type="hidden" name="details" value="${escapeHtml(input.sealedDraft)}">
      <div class="choices">
        <button type="submit" name="action" value="confirm" class="primary">${say(locale, 'review.submit')}</button>
        <button type="submit" name="action" value="change" class="secondary">${say(locale, 'review.change')}</button>
      </div>
    </form>
    ${linkValidity(locale, session)}`;
  return layout(locale, sayText(locale, 'review.heading'), body);
}

function idTypeKey(idType: string): StringKey {
  const key = `idType.${idType}`;
  return isStringKey(key) ? key : 'capture.choose';
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
function formatSize(locale: SessionLocale, bytes: number): string {
  const formats = sizeFormats[locale];
  return bytes < 1_000_000 ? formats.kb.format(Math.max(1, Math.round(bytes / 1000))) : formats.mb.format(bytes / 1e6);
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
  /** The person agreed to an earlier version of the notice: the page says it changed. */
  askedAgain: boolean;
}

/**
 * The consent notice (Kenya Data Protection Act 2019, docs/decisions.md#consent-before-capture), shown before
 * anything else while the session waits for documents and the person has not agreed to its current text: who
 * collects (with a link to their privacy notice when the session has one) and who processes, what, why, for how
 * long, their rights; then one form with "I agree" and "I do not agree".
 */
export function renderConsentPage(input: ConsentPageInput): string {
  const { session, formToken, notice, language, retentionDays } = input;
  const { locale } = language;
  const controllerName = input.controller ?? sayText(locale, 'requesterFallback');
  const controller = { html: `<strong>${escapeHtml(controllerName)}</strong>` };
  const who = [say(locale, 'consent.controller', { controller }), say(locale, 'consent.processor', { controller })];
  // Smile ID decides this session: the person is told who else processes their data
  // (docs/decisions.md#consent-before-capture).
  if (session.decisionSource === 'smile_id') who.push(say(locale, `consent.subProcessor.${session.type}`));
  if (session.privacyNoticeUrl !== null) {
    // The page's URL is the session's credential: no referrer goes with the link (the page's own policy says so
    // too). Only an http(s) URL gets here, checked when the session was created (checkSessionUrl).
    who.push(
      `<a href="${escapeHtml(session.privacyNoticeUrl)}" rel="noreferrer"${language.sdk?.mode === 'embed' ? ' target="_blank"' : ''} id="privacy-notice" class="target">${say(locale, 'consent.privacyNotice', { controller: controllerName })}</a>`,
    );
  }
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
    ${input.askedAgain ? `<p class="changed" id="consent-changed">${say(locale, 'consent.changed')}</p>` : ''}
    <p>${say(locale, 'consent.intro')}</p>
    ${section('consent-who', 'consent.whoHeading', who)}
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

/**
 * After "I do not agree": the session has ended, nothing was collected (nothing more, when an earlier version of the
 * notice was agreed to), and the person is pointed back to the app to verify another way.
 */
export function renderDeclinedPage(
  session: VerificationSession,
  language: PageLanguage,
  { askedAgain }: { askedAgain: boolean },
): string {
  const { locale } = language;
  const requester = session.appName ?? sayText(locale, 'requesterFallback');
  const body = `
    ${languageSwitch(language)}
    <h1>${say(locale, 'declined.title')}</h1>
    <p id="declined-ended">${say(locale, askedAgain ? 'declined.nothingMoreCollected' : 'declined.nothingCollected')}</p>
    <p>${say(locale, 'declined.otherWay', { app: requester })}</p>
    ${continueHtml(language, session, requester)}`;
  // The person left without sending anything: the SDK's page hears that they closed the verification.
  return layout(locale, sayText(locale, 'declined.title'), body, {
    head: sdkHead(language, { type: 'verification.closed' }),
  });
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
 * the page's own address, whatever path prefix serves it, and the SDK's mode and origin.
 */
function languageSwitch(language: PageLanguage, keep = ''): string {
  const links = (Object.keys(languageNames) as SessionLocale[]).map((locale) =>
    locale === language.locale
      ? `<span lang="${locale}" aria-current="true">${escapeHtml(languageNames[locale])}</span>`
      : `<a href="?${keep}${escapeHtml(keptQuery({ ...language, locale, chosen: true }))}" hreflang="${locale}" lang="${locale}">${escapeHtml(languageNames[locale])}</a>`,
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

/** The form token, and the kept query (a chosen language, the SDK's mode and origin) so the page after the post keeps it. */
function hiddenFields(token: string, language: PageLanguage): string {
  const kept = [...new URLSearchParams(keptQuery(language))]
    .map(([name, value]) => `\n        <input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  return `<input type="hidden" name="token" value="${escapeHtml(token)}">${kept}`;
}

const timeFormats: Record<SessionLocale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  sw: new Intl.DateTimeFormat('sw-KE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

function formatTime(locale: SessionLocale, date: Date): string {
  return `${timeFormats[locale].format(date)} UTC`;
}

function layout(lang: SessionLocale, title: string, body: string, { head = '' }: { head?: string } = {}): string {
  return htmlDocument({ title, styles, body, lang, head });
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
.reason,.changed{padding:.5rem .75rem;background:#fff8c5;border-left:4px solid #9a6700}
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
a.target{display:inline-block;padding:.25rem 0}
.choices{display:flex;flex-wrap:wrap;gap:.75rem}
button{min-height:2.75rem}
fieldset{margin:0 0 1rem;padding:.75rem 1rem;border:1px solid #d0d7de;border-radius:6px;min-width:0}
legend{padding:0 .25rem;font-weight:600}
.field{margin-bottom:1rem}
select,input[type=file]{display:block;width:100%;max-width:100%;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#fff;color:#1f2328}
select{min-height:2.75rem}
select:focus-visible{outline:3px solid #0969da;outline-offset:2px}
[aria-invalid=true]{border:2px solid #a40e26}
.hint{margin:0 0 .25rem;font-size:.875rem;color:#57606a}
.field-error{margin:0 0 .25rem;font-weight:600;color:#a40e26}
.error-summary{margin:0 0 1rem;padding:.75rem 1rem;border:3px solid #a40e26;border-radius:6px}
.error-summary h3{margin:0 0 .5rem;font-size:1rem;color:#a40e26}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:#a40e26;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
a.button{display:inline-block;padding:.6rem 1.25rem;border-radius:6px;font-weight:600;text-decoration:none;min-height:2.75rem}
a.button.primary{background:#1f6feb;color:#fff}
@media (max-width:40rem){main{margin:0;border:0;border-radius:0;padding:1rem}}
`;
