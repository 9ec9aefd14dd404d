/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { VerificationSession } from '@platform/db';
import { type BilingualKey, type Child, say, text } from '@platform/templates';
import type { NoticeCode, PageLanguage } from './page.js';
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

// The consent notice before anything is collected, the page after "I do not agree", and the page of a link that
// names no session.

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

function ConsentSection({ id, heading, paragraphs }: { id: string; heading: Child; paragraphs: Child[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {paragraphs.map((paragraph) => (
        <p>{paragraph}</p>
      ))}
    </section>
  );
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
  const controllerName = input.controller ?? text(locale, 'verify.requesterFallback');
  const controller = <strong>{controllerName}</strong>;
  const who: Child[] = [
    say(locale, 'verify.consent.controller', { controller }),
    say(locale, 'verify.consent.processor', { controller }),
  ];
  // Smile ID decides this session: the person is told who else processes their data
  // (docs/decisions.md#consent-before-capture).
  if (session.decisionSource === 'smile_id') who.push(say(locale, `verify.consent.subProcessor.${session.type}`));
  if (session.privacyNoticeUrl !== null) {
    // The page's URL is the session's credential: no referrer goes with the link (the page's own policy says so
    // too). Only an http(s) URL gets here, checked when the session was created (checkSessionUrl).
    who.push(
      <a
        href={session.privacyNoticeUrl}
        rel="noreferrer"
        target={language.sdk?.mode === 'embed' ? '_blank' : undefined}
        id="privacy-notice"
        class="target"
      >
        {say(locale, 'verify.consent.privacyNotice', { controller: controllerName })}
      </a>,
    );
  }
  const heading = (key: BilingualKey) => say(locale, key);
  const body = (
    <>
      <LanguageSwitch language={language} />
      <Requester session={session} locale={locale} />
      <h1>{say(locale, 'verify.consent.heading')}</h1>
      <TestBadge session={session} locale={locale} />
      <Notice locale={locale} code={notice} />
      {input.askedAgain ? (
        <p class="changed" id="consent-changed">
          {say(locale, 'verify.consent.changed')}
        </p>
      ) : null}
      <p>{say(locale, 'verify.consent.intro')}</p>
      <ConsentSection id="consent-who" heading={heading('verify.consent.whoHeading')} paragraphs={who} />
      <ConsentSection
        id="consent-what"
        heading={heading('verify.consent.whatHeading')}
        paragraphs={[say(locale, `verify.consent.what.${session.type}`)]}
      />
      <ConsentSection
        id="consent-why"
        heading={heading('verify.consent.whyHeading')}
        paragraphs={[say(locale, `verify.consent.why.${session.type}`, { controller })]}
      />
      <ConsentSection
        id="consent-keep"
        heading={heading('verify.consent.keepHeading')}
        paragraphs={[
          retentionDays === 1
            ? say(locale, 'verify.consent.keepOneDay')
            : say(locale, 'verify.consent.keep', { days: retentionDays }),
        ]}
      />
      <ConsentSection
        id="consent-rights"
        heading={heading('verify.consent.rightsHeading')}
        paragraphs={[say(locale, 'verify.consent.rights', { controller }), say(locale, 'verify.consent.complaint')]}
      />
      <form method="post" action={session.id} class="consent">
        <HiddenFields token={formToken} language={language} />
        <p>{say(locale, 'verify.consent.agreeExplained')}</p>
        <div class="choices">
          <button type="submit" name="action" value="agree" class="primary">
            {say(locale, 'verify.consent.agree')}
          </button>
          <button type="submit" name="action" value="decline" class="secondary">
            {say(locale, 'verify.consent.decline')}
          </button>
        </div>
      </form>
      <LinkValidity locale={locale} session={session} />
    </>
  );
  return renderHostedPage(locale, text(locale, 'verify.consent.heading'), body);
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
  const requester = session.appName ?? text(locale, 'verify.requesterFallback');
  const body = (
    <>
      <LanguageSwitch language={language} />
      <h1>{say(locale, 'verify.declined.title')}</h1>
      <p id="declined-ended">
        {say(locale, askedAgain ? 'verify.declined.nothingMoreCollected' : 'verify.declined.nothingCollected')}
      </p>
      <p>{say(locale, 'verify.declined.otherWay', { app: requester })}</p>
      <ContinueLink language={language} session={session} requester={requester} />
    </>
  );
  // The person left without sending anything: the SDK's page hears that they closed the verification.
  return renderHostedPage(
    locale,
    text(locale, 'verify.declined.title'),
    body,
    sdkHead(language, { type: 'verification.closed' }),
  );
}

export function renderNotFoundPage(language: PageLanguage): string {
  const { locale } = language;
  const body = (
    <>
      <LanguageSwitch language={language} />
      <h1>{say(locale, 'verify.notFound.title')}</h1>
      <p>{say(locale, 'verify.notFound.body')}</p>
    </>
  );
  return renderHostedPage(locale, text(locale, 'verify.notFound.title'), body);
}
