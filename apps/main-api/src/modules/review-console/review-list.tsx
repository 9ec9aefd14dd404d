/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type JSX, say, text } from '@platform/templates';
import type { ReviewQueueEntry, ReviewQueuePage } from '../reviews/index.js';
import { CONSOLE_PATH, DECIDED_PATH, ListTabs, Message, page } from './page-parts.js';

// The console's two lists of sessions, waiting and decided (docs/decisions.md#review-console): the same page, tabs,
// cards and paging; each list says what it shows of a session in `fields`.

const lists = {
  waiting: { texts: 'queue', path: CONSOLE_PATH },
  decided: { texts: 'decided', path: DECIDED_PATH },
} as const;

export function reviewListPage(input: {
  list: keyof typeof lists;
  reviews: ReviewQueuePage;
  csrfToken: string;
  notice?: string | undefined;
  /** The `<dt>`/`<dd>` pairs of one session, between its customer and its id. */
  fields: (item: ReviewQueueEntry) => JSX.Element;
}) {
  const { list, reviews, csrfToken, notice, fields } = input;
  const { texts, path } = lists[list];
  return page({
    title: text('en', `console.${texts}.title`),
    signedIn: true,
    csrfToken,
    body: (
      <>
        <ListTabs current={list} />
        <h1>{say('en', `console.${texts}.heading`)}</h1>
        <Message text={notice} />
        {reviews.reviews.length === 0 ? (
          <p>{say('en', `console.${texts}.empty`)}</p>
        ) : (
          <>
            <p>{say('en', `console.${texts}.order`)}</p>
            <ol class="queue">
              {reviews.reviews.map((item) => (
                <li class="card">
                  <h2>
                    <a href={`${CONSOLE_PATH}/sessions/${item.sessionId}`}>
                      {item.type.toUpperCase()} · {item.appName ?? text('en', 'console.noAppName')}
                    </a>
                  </h2>
                  <dl>
                    <dt>{say('en', 'console.field.organization')}</dt>
                    <dd>{item.organization.name}</dd>
                    {fields(item)}
                    <dt>{say('en', 'console.field.session')}</dt>
                    <dd>
                      <code>{item.sessionId}</code>
                    </dd>
                  </dl>
                </li>
              ))}
            </ol>
          </>
        )}
        {reviews.nextCursor === null ? null : (
          <p>
            <a href={`${path}?cursor=${encodeURIComponent(reviews.nextCursor)}`}>
              {say('en', `console.${texts}.older`)}
            </a>
          </p>
        )}
      </>
    ),
  });
}
