/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { say, text } from '@platform/templates';
import type { ReviewQueuePage } from '../reviews/index.js';
import { CONSOLE_PATH, CsrfField, Message, page, When } from './page-parts.js';
import { reviewListPage } from './review-list.js';

// The review console's sign-in, queue and error pages, and the notices and form problems a redirect names; the
// session's page is review-page.tsx, the decided list decided-page.tsx, and what they share page-parts.tsx. Plain
// HTML from what the review service (../reviews) answers: no script, forms that post and redirect, texts from the
// catalog, every value escaped by the template layer (docs/decisions.md#html-templates).

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

export function queuePage(input: {
  queue: ReviewQueuePage;
  reviewerId: string;
  csrfToken: string;
  notice?: string | undefined;
}) {
  const { queue, reviewerId, csrfToken, notice } = input;
  return reviewListPage({
    list: 'waiting',
    reviews: queue,
    csrfToken,
    notice,
    fields: (item) => (
      <>
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
