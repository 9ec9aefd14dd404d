/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { SessionLocale, VerificationSession } from '@platform/db';
import { isBilingualKey, say, text } from '@platform/templates';
import { formKindsOf } from './capture.js';
import { CaptureForm, type CaptureFormInput } from './capture-form.js';
import { type DirectorLink, DirectorsSection } from './directors-section.js';
import { isOpen, type NoticeCode, type PageLanguage, pageUrl, type SandboxAction, sandboxActionsFor } from './page.js';
import {
  ContinueLink,
  HiddenFields,
  LanguageSwitch,
  LinkValidity,
  Notice,
  Requester,
  renderHostedPage,
  sdkHead,
  TestBadge,
} from './page-parts.js';
import { sessionPageEvent } from './sdk.js';

// The hosted verification page of a session after consent: its status, the documents it needs, the capture form
// while it takes documents, the sandbox buttons, and the way back to the app. Plain HTML with no script but the SDK's
// (sdk.tsx).

/** How often the page of a processing session reloads itself, in seconds (a meta refresh: no script). */
const REFRESH_SECONDS = 10;

export interface SessionPageInput {
  session: VerificationSession;
  /** Sandbox controls are shown with this form token; null when the session has no sandbox. */
  sandboxFormToken: string | null;
  notice: NoticeCode | undefined;
  language: PageLanguage;
  /** The capture form, while the session takes documents. */
  capture?: CaptureFormInput | undefined;
  /** A business's directors and their own links, once the registry named them (docs/decisions.md#directors). */
  directors?: { company: string | null; links: readonly DirectorLink[] } | undefined;
}

export function renderSessionPage(input: SessionPageInput): string {
  const { session, sandboxFormToken, notice, language, capture, directors } = input;
  const { locale } = language;
  const requester = session.appName ?? text(locale, 'verify.requesterFallback');
  const status = text(locale, `verificationStatus.${session.status}`);
  const body = (
    <>
      <LanguageSwitch language={language} />
      <Requester session={session} locale={locale} />
      <h1>{say(locale, `verify.title.${session.type}`)}</h1>
      <TestBadge session={session} locale={locale} />
      <Notice locale={locale} code={notice} />
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">{say(locale, 'verify.statusHeading')}</h2>
        <p class={`status status-${session.status}`} id="session-status">
          {status}
        </p>
        <p>{say(locale, `verify.next.${session.status}`, { app: requester })}</p>
        <Reason locale={locale} session={session} />
      </section>
      <Documents locale={locale} session={session} />
      {directors === undefined ? null : (
        <DirectorsSection locale={locale} company={directors.company} directors={directors.links} />
      )}
      {capture === undefined ? null : <CaptureForm session={session} input={capture} language={language} />}
      {sandboxFormToken === null ? null : <Sandbox session={session} token={sandboxFormToken} language={language} />}
      <ContinueLink language={language} session={session} requester={requester} />
      {isOpen(session.status) ? <LinkValidity locale={locale} session={session} /> : null}
    </>
  );
  const errorCount = capture?.errors.length ?? 0;
  const title = text(locale, `verify.documentTitle.${session.type}`, { status });
  // A processing session's page reloads itself without its notice, so it shows the result when there is one; not
  // while directors' links wait to be copied, which a reload would interrupt.
  const waitingForDirectors = directors?.links.some((link) => link.status === 'pending') ?? false;
  const head = (
    <>
      {session.status === 'processing' && !waitingForDirectors ? (
        <meta http-equiv="refresh" content={`${REFRESH_SECONDS}; url=${pageUrl(session, language)}`} />
      ) : null}
      {sdkHead(language, sessionPageEvent(session, notice === 'submitted'))}
    </>
  );
  return renderHostedPage(
    locale,
    errorCount > 0 ? `${text(locale, 'verify.capture.errorTitle')} ${title}` : title,
    body,
    head,
  );
}

/**
 * The documents the session needs, or, while a requires_input decision names documents, only those: the ones to
 * send again (docs/decisions.md#resubmission). Director IDs asked for again are all sent again.
 */
function Documents({ locale, session }: { locale: SessionLocale; session: VerificationSession }) {
  const resend = session.status === 'requires_input' ? (session.resubmitDocuments ?? []) : [];
  if (resend.length === 0) {
    return (
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">{say(locale, 'verify.documentsHeading')}</h2>
        <ul>
          {(session.requiredDocuments as string[]).map((document) => (
            <li>{requiredDocumentLabel(locale, document)}</li>
          ))}
        </ul>
      </section>
    );
  }
  const kinds = formKindsOf(session).filter((kind) => resend.includes(kind));
  return (
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">{say(locale, 'verify.documentsHeading.resend')}</h2>
      <ul id="resend-documents">
        {kinds.map((kind) => (
          <li>{say(locale, `documentKind.${kind}`)}</li>
        ))}
      </ul>
      {kinds.includes('director_id') ? <p>{say(locale, 'verify.resend.directors')}</p> : null}
    </section>
  );
}

/** A required document by its label, or by its own name when the catalog has none (a name added since). */
function requiredDocumentLabel(locale: SessionLocale, document: string) {
  const key = `requiredDocument.${document}`;
  return isBilingualKey(key) ? say(locale, key) : document;
}

function Reason({ locale, session }: { locale: SessionLocale; session: VerificationSession }) {
  if (session.lastError === null || (session.status !== 'requires_input' && session.status !== 'rejected')) return null;
  return (
    <p class="reason">
      <strong>{say(locale, 'verify.reason')}</strong> {session.lastError}
    </p>
  );
}

function Sandbox(props: { session: VerificationSession; token: string; language: PageLanguage }) {
  const { session, token, language } = props;
  const { locale } = language;
  const actions = sandboxActionsFor(session.status);
  return (
    <section class="sandbox" aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">{say(locale, 'verify.sandbox.heading')}</h2>
      <p>{say(locale, session.environment === 'test' ? 'verify.sandbox.introTest' : 'verify.sandbox.introLive')}</p>
      {actions.length === 0 ? (
        <p>{say(locale, 'verify.sandbox.finished')}</p>
      ) : (
        actions.map((action) => (
          <SandboxForm sessionId={session.id} token={token} action={action} language={language} />
        ))
      )}
    </section>
  );
}

const actionButtons: Record<
  SandboxAction,
  { reasonLabel?: 'verify.sandbox.rejectReason' | 'verify.sandbox.resubmissionReason'; style: string }
> = {
  submit: { style: 'primary' },
  approve: { style: 'primary' },
  reject: { reasonLabel: 'verify.sandbox.rejectReason', style: 'danger' },
  request_resubmission: { reasonLabel: 'verify.sandbox.resubmissionReason', style: 'secondary' },
};

function SandboxForm(props: { sessionId: string; token: string; action: SandboxAction; language: PageLanguage }) {
  const { sessionId, token, action, language } = props;
  const { reasonLabel, style } = actionButtons[action];
  const reasonId = `${action}-reason`;
  // A relative action posts back to this page's own address, whatever path prefix serves it.
  return (
    <form method="post" action={sessionId}>
      <HiddenFields token={token} language={language} />
      <input type="hidden" name="action" value={action} />
      {reasonLabel === undefined ? null : (
        <>
          <label for={reasonId}>{say(language.locale, reasonLabel)}</label>
          <input type="text" id={reasonId} name="reason" maxlength={500} autocomplete="off" />
        </>
      )}
      <button type="submit" class={style}>
        {say(language.locale, `verify.sandbox.${action}`)}
      </button>
    </form>
  );
}
