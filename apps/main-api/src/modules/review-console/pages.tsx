/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type DocumentKind, documentKindsOf } from '@platform/db';
import { type Child, HtmlPage, isMessageKey, renderPage, say, text } from '@platform/templates';
import { type ReviewDetail, type ReviewQueuePage, reviewDecisions } from '../reviews/index.js';
import { CONSOLE_STYLES } from './styles.js';

// The review console's pages as plain HTML, from what the review service (../reviews) answers: no script, no
// external asset, inline styles only (the CSP allows nothing else), forms that post and redirect. Texts come from
// the catalog, and the template layer escapes every value (docs/decisions.md#html-templates).

/** Where the console lives on main-api. */
export const CONSOLE_PATH = '/review';

/** A notice shown once after a redirect (`?notice=`), as a status message screen readers announce. */
const notices = ['signed_out', 'claimed', 'decided'] as const;

export function noticeText(notice: unknown): string | undefined {
  const known = notices.find((candidate) => candidate === notice);
  return known === undefined ? undefined : text('en', `console.notice.${known}`);
}

/** What was wrong with a decision form, said on the session's page after the redirect (`?error=`). */
const formProblems = ['no_decision', 'no_reason', 'unknown_documents', 'documents_without_request', 'refused'] as const;
export type FormProblem = (typeof formProblems)[number];

export function problemText(problem: unknown): string | undefined {
  const known = formProblems.find((candidate) => candidate === problem);
  return known === undefined ? undefined : text('en', `console.problem.${known}`);
}

interface Frame {
  title: string;
  body: Child;
  csrfToken?: string | undefined;
  signedIn: boolean;
}

function page({ title, body, csrfToken, signedIn }: Frame): string {
  return renderPage(
    <HtmlPage title={text('en', 'console.pageTitle', { page: title })} styles={CONSOLE_STYLES}>
      <header>
        <p class="brand">
          <a href={CONSOLE_PATH}>{say('en', 'console.name')}</a>
        </p>
        {signedIn && csrfToken !== undefined ? (
          <form method="post" action={`${CONSOLE_PATH}/sign-out`} class="inline">
            <CsrfField token={csrfToken} />
            <button type="submit" class="link">
              {say('en', 'console.signOut')}
            </button>
          </form>
        ) : null}
      </header>
      {body}
    </HtmlPage>,
  );
}

function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

function Message({ text, kind = 'status' }: { text: string | undefined; kind?: 'status' | 'alert' }) {
  if (text === undefined) return null;
  return (
    <p class={`message ${kind}`} role={kind}>
      {text}
    </p>
  );
}

export function signInPage({ csrfToken, error, notice }: { csrfToken: string; error?: string; notice?: string }) {
  return page({
    title: text('en', 'console.signIn.title'),
    signedIn: false,
    body: (
      <>
        <h1>{say('en', 'console.signIn.heading')}</h1>
        <Message text={error} kind="alert" />
        <Message text={notice} />
        <p>{say('en', 'console.signIn.intro')}</p>
        <form method="post" action={`${CONSOLE_PATH}/sign-in`}>
          <CsrfField token={csrfToken} />
          <label for="token">{say('en', 'console.signIn.token')}</label>
          <textarea id="token" name="token" rows={4} required autocomplete="off" spellcheck={false}></textarea>
          <button type="submit" class="primary">
            {say('en', 'console.signIn.submit')}
          </button>
        </form>
      </>
    ),
  });
}

/** A time the service gives (ISO 8601), to the minute. */
function When({ at }: { at: string | null }) {
  if (at === null) return <>—</>;
  const date = new Date(at);
  return <time datetime={date.toISOString()}>{date.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>;
}

/** An ID type by its label in the catalog, or by its own name when the catalog has none (a type added since). */
function idTypeName(idType: string): string {
  const key = `idType.${idType}`;
  return isMessageKey(key) ? text('en', key) : idType;
}

/** The submitted details as labelled values (ID type and number, or registration number and company name). */
function detailsOf(review: ReviewDetail): Array<{ label: string; value: string }> {
  const details = review.details;
  if (details === null) return [];
  if (details.type === 'kyc') {
    return [
      { label: text('en', 'console.detail.idType'), value: idTypeName(details.idType) },
      { label: text('en', 'console.detail.idNumber'), value: details.idNumber },
    ];
  }
  return [
    { label: text('en', 'console.detail.registrationNumber'), value: details.registrationNumber },
    { label: text('en', 'console.detail.companyName'), value: details.companyName ?? '—' },
  ];
}

/** A document link as a path: the console is served by main-api itself, whatever PUBLIC_URL says. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function kindName(kind: DocumentKind): string {
  return text('en', `documentKind.${kind}`);
}

export function queuePage(input: {
  queue: ReviewQueuePage;
  reviewerId: string;
  csrfToken: string;
  notice?: string | undefined;
}) {
  const { queue, reviewerId, csrfToken, notice } = input;
  const rows = queue.reviews.map((item) => (
    <li class="card">
      <h2>
        <a href={`${CONSOLE_PATH}/sessions/${item.sessionId}`}>
          {item.type.toUpperCase()} · {item.appName ?? text('en', 'console.noAppName')}
        </a>
      </h2>
      <dl>
        <dt>{say('en', 'console.field.environment')}</dt>
        <dd>{item.environment}</dd>
        <dt>{say('en', 'console.field.submitted')}</dt>
        <dd>
          <When at={item.submittedAt} />
        </dd>
        <dt>{say('en', 'console.field.claimedBy')}</dt>
        <dd>
          {item.claimedBy === null
            ? say('en', 'console.claimedBy.nobody')
            : item.claimedBy === reviewerId
              ? say('en', 'console.claimedBy.you')
              : item.claimedBy}
        </dd>
        <dt>{say('en', 'console.field.session')}</dt>
        <dd>
          <code>{item.sessionId}</code>
        </dd>
      </dl>
    </li>
  ));
  return page({
    title: text('en', 'console.queue.title'),
    signedIn: true,
    csrfToken,
    body: (
      <>
        <h1>{say('en', 'console.queue.heading')}</h1>
        <Message text={notice} />
        {queue.reviews.length === 0 ? (
          <p>{say('en', 'console.queue.empty')}</p>
        ) : (
          <>
            <p>{say('en', 'console.queue.order')}</p>
            <ol class="queue">{rows}</ol>
          </>
        )}
        {queue.nextCursor === null ? null : (
          <p>
            <a href={`${CONSOLE_PATH}?cursor=${encodeURIComponent(queue.nextCursor)}`}>
              {say('en', 'console.queue.older')}
            </a>
          </p>
        )}
      </>
    ),
  });
}

export function reviewPage(input: {
  review: ReviewDetail;
  reviewerId: string;
  csrfToken: string;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const { review, reviewerId, csrfToken, error, notice } = input;
  const action = `${CONSOLE_PATH}/sessions/${review.sessionId}`;
  const details = detailsOf(review);
  const claimedByOther = review.claimedBy !== null && review.claimedBy !== reviewerId;
  const until = <When at={review.claimExpiresAt} />;
  const claim =
    review.claimedBy === reviewerId ? (
      <p>{say('en', 'console.review.yours', { time: until })}</p>
    ) : claimedByOther ? (
      <p>{say('en', 'console.review.claimedByOther', { reviewer: review.claimedBy ?? '', time: until })}</p>
    ) : (
      <form method="post" action={`${action}/claim`}>
        <CsrfField token={csrfToken} />
        <button type="submit">{say('en', 'console.review.claim')}</button>
      </form>
    );
  const documents = review.documents.map((document) => {
    const name = kindName(document.kind);
    const url = pathOf(document.url);
    return (
      <figure class="document">
        {document.contentType.startsWith('image/') ? (
          <a href={url}>
            <img src={url} alt={name} />
          </a>
        ) : (
          <p>
            <a href={url} download>
              {say('en', 'console.review.downloadPdf', { size: Math.ceil(document.sizeBytes / 1024) })}
            </a>
          </p>
        )}
        <figcaption>{name}</figcaption>
      </figure>
    );
  });
  const decision = claimedByOther ? null : (
    <form method="post" action={`${action}/decision`} class="decision">
      <CsrfField token={csrfToken} />
      <fieldset>
        <legend>{say('en', 'console.decision.legend')}</legend>
        <ul class="choices">
          {reviewDecisions.map((value, index) => (
            <li>
              <input type="radio" id={`decision-${value}`} name="decision" value={value} required={index === 0} />
              <label for={`decision-${value}`}>{say('en', `console.decision.${value}`)}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <label for="reason">{say('en', 'console.decision.reason')}</label>
      <textarea id="reason" name="reason" rows={3} maxlength={500}></textarea>
      <fieldset>
        <legend>{say('en', 'console.decision.resend')}</legend>
        <ul class="choices">
          {documentKindsOf(review.type).map((kind) => (
            <li>
              <input type="checkbox" id={`resend-${kind}`} name="documents" value={kind} />
              <label for={`resend-${kind}`}>{kindName(kind)}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <button type="submit" class="primary">
        {say('en', 'console.decision.submit')}
      </button>
    </form>
  );
  return page({
    title: text('en', 'console.review.title', { type: review.type.toUpperCase() }),
    signedIn: true,
    csrfToken,
    body: (
      <>
        <p>
          <a href={CONSOLE_PATH}>{say('en', 'console.backToQueue')}</a>
        </p>
        <h1>
          {review.type.toUpperCase()} · {review.appName ?? text('en', 'console.noAppName')}
        </h1>
        <Message text={error} kind="alert" />
        <Message text={notice} />
        <dl>
          <dt>{say('en', 'console.field.environment')}</dt>
          <dd>{review.environment}</dd>
          <dt>{say('en', 'console.field.status')}</dt>
          <dd>{review.status}</dd>
          <dt>{say('en', 'console.field.submitted')}</dt>
          <dd>
            <When at={review.submittedAt} />
          </dd>
          <dt>{say('en', 'console.field.session')}</dt>
          <dd>
            <code>{review.sessionId}</code>
          </dd>
        </dl>
        {claim}
        <h2>{say('en', 'console.review.details')}</h2>
        {details.length === 0 ? (
          <p>{say('en', 'console.none')}</p>
        ) : (
          <dl>
            {details.map(({ label, value }) => (
              <>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </>
            ))}
          </dl>
        )}
        <h2>{say('en', 'console.review.history')}</h2>
        <ol class="history">
          {review.history.map((change) => (
            <li>
              <When at={change.at} />: {change.to}
              {change.reason === null ? null : ` (${change.reason})`}
            </li>
          ))}
        </ol>
        <h2>{say('en', 'console.review.documents')}</h2>
        <p>{say('en', 'console.review.links')}</p>
        <div class="documents">{documents.length === 0 ? <p>{say('en', 'console.none')}</p> : documents}</div>
        {decision}
      </>
    ),
  });
}

export function errorPage({ status, text: message, signedIn }: { status: number; text: string; signedIn: boolean }) {
  const title = text('en', status === 404 ? 'console.error.notFound' : 'console.error.refused');
  return page({
    title,
    signedIn: false,
    body: (
      <>
        <h1>{title}</h1>
        <Message text={message} kind="alert" />
        <p>
          <a href={CONSOLE_PATH}>{say('en', signedIn ? 'console.backToQueue' : 'console.signIn.title')}</a>
        </p>
      </>
    ),
  });
}
