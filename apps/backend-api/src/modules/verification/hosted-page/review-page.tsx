/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { VerificationDocument, VerificationSession } from '@platform/db';
import { type BilingualKey, type Child, isBilingualKey, say, text } from '@platform/templates';
import { formKindsOf, type PageResend } from './capture.js';
import type { Draft } from './draft.js';
import type { PageLanguage } from './page.js';
import { formatSize, HiddenFields, LinkValidity, Requester, renderHostedPage, TestBadge } from './page-parts.js';

// The review step of the hosted page: what was typed and received (kinds and sizes, never the images), with
// "Submit" and "Change" (docs/decisions.md#hosted-capture).

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

export function renderReviewPage(input: ReviewPageInput): string {
  const { session, draft, documents, resend, language } = input;
  const { locale } = language;
  const row = (label: BilingualKey, value: Child) => (
    <>
      <dt>{say(locale, label)}</dt>
      <dd>{value}</dd>
    </>
  );
  const typed = Object.keys(draft).length > 0;
  const details =
    !typed && resend?.detailsKept
      ? null
      : session.type === 'kyc'
        ? [
            row('verify.capture.idType', draft.idType === undefined ? '' : say(locale, idTypeKey(draft.idType))),
            row('verify.capture.idNumber', draft.idNumber?.trim().toUpperCase() ?? ''),
          ]
        : [
            row('verify.capture.registrationNumber', draft.registrationNumber?.trim().toUpperCase() ?? ''),
            draft.companyName === undefined ? null : row('verify.capture.companyName', draft.companyName.trim()),
          ];
  // In the form's order (front, back, selfie), whatever order they arrived in.
  const order = formKindsOf(session);
  const DocumentList = (props: { id: string; heading: BilingualKey; list: readonly VerificationDocument[] }) => (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{say(locale, props.heading)}</h2>
      <ul>
        {[...props.list]
          .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
          .map((document) => (
            <li>
              {say(locale, `documentKind.${document.kind}`)}: {formatSize(locale, document.sizeBytes)}
            </li>
          ))}
      </ul>
    </section>
  );
  const sentAgain = resend?.sentAgain ?? [];
  const kept = documents.filter((document) => !sentAgain.includes(document));
  const body = (
    <>
      <Requester session={session} locale={locale} />
      <h1>{say(locale, 'verify.review.heading')}</h1>
      <TestBadge session={session} locale={locale} />
      <p>{say(locale, 'verify.review.intro')}</p>
      <section aria-labelledby="review-details">
        <h2 id="review-details">{say(locale, `verify.capture.detailsLegend.${session.type}`)}</h2>
        {details === null ? <p>{say(locale, 'verify.capture.detailsKept')}</p> : <dl>{details}</dl>}
      </section>
      {resend === undefined ? (
        <DocumentList id="review-documents" heading="verify.review.documents" list={documents} />
      ) : (
        <>
          <DocumentList id="review-sent-again" heading="verify.review.sentAgain" list={sentAgain} />
          {kept.length === 0 ? null : <DocumentList id="review-kept" heading="verify.review.kept" list={kept} />}
        </>
      )}
      <form method="post" action={session.id}>
        <HiddenFields token={input.formToken} language={language} />
        <input type="hidden" name="details" value={input.sealedDraft} />
        <div class="choices">
          <button type="submit" name="action" value="confirm" class="primary">
            {say(locale, 'verify.review.submit')}
          </button>
          <button type="submit" name="action" value="change" class="secondary">
            {say(locale, 'verify.review.change')}
          </button>
        </div>
      </form>
      <LinkValidity locale={locale} session={session} />
    </>
  );
  return renderHostedPage(locale, text(locale, 'verify.review.heading'), body);
}

function idTypeKey(idType: string): BilingualKey {
  const key = `idType.${idType}`;
  return isBilingualKey(key) ? key : 'verify.capture.choose';
}
