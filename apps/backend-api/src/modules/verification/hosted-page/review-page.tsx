/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { VerificationDocument, VerificationSession } from '@platform/db';
import { type BilingualKey, type Child, isBilingualKey, type Locale, say, text } from '@platform/templates';
import { detailsFor, formKindsOf, type PageResend } from './capture.js';
import { countryName } from './countries.js';
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
  // What the submit sends: a national ID's leftover MRZ lines are not listed, as they are not sent (capture.ts).
  const sent = detailsFor(session, draft);
  const details =
    !typed && resend?.detailsKept
      ? null
      : session.type === 'kyc'
        ? [
            row('verify.capture.idType', sent.idType === undefined ? '' : say(locale, idTypeKey(sent.idType))),
            row('verify.capture.idNumber', sent.idNumber?.trim().toUpperCase() ?? ''),
            row(
              'verify.review.documentExpiry',
              sent.documentExpiry === undefined
                ? say(locale, 'verify.review.noExpiry')
                : formatDay(locale, sent.documentExpiry),
            ),
            sent.mrz === undefined ? null : row('verify.review.mrz', <pre class="mrz">{sent.mrz.toUpperCase()}</pre>),
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
      {details === null || session.type !== 'kyc' ? null : (
        <section aria-labelledby="review-person">
          <h2 id="review-person">{say(locale, 'verify.review.personLegend')}</h2>
          <dl>
            {row('verify.capture.firstName', sent.firstName ?? '')}
            {sent.middleName === undefined ? null : row('verify.review.middleName', sent.middleName)}
            {row('verify.capture.lastName', sent.lastName ?? '')}
            {row(
              'verify.capture.dateOfBirth',
              sent.dateOfBirth === undefined ? '' : formatDay(locale, sent.dateOfBirth),
            )}
            {row(
              'verify.capture.nationality',
              sent.nationality === undefined ? '' : countryName(locale, sent.nationality.toUpperCase()),
            )}
          </dl>
        </section>
      )}
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

/** Days in the page's language, as the page's other dates are written (page-parts.tsx). */
const dayFormats: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }),
  sw: new Intl.DateTimeFormat('sw-KE', { dateStyle: 'long', timeZone: 'UTC' }),
};

/** A `YYYY-MM-DD` day in the page's language (31 May 1990, 31 Mei 1990); the text as typed when it is not one. */
function formatDay(locale: Locale, day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(day) || Number.isNaN(date.getTime())) return day;
  return dayFormats[locale].format(date);
}
