/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { say, text } from '@platform/templates';
import type { ReviewQueuePage } from '../reviews/index.js';
import { ActorName, CONSOLE_PATH, DECIDED_PATH, ListTabs, Message, page, statusName, When } from './page-parts.js';

// The decided sessions (docs/decisions.md#decided-reviews): those given to reviewers that have a decision, newest
// decision first, so a reviewer finds one again (a complaint, a customer's question); each links to its page, which
// shows the history and no forms.

export function decidedPage(input: {
  decided: ReviewQueuePage;
  reviewerId: string;
  csrfToken: string;
  notice?: string | undefined;
}) {
  const { decided, reviewerId, csrfToken, notice } = input;
  const rows = decided.reviews.map((item) => (
    <li class="card">
      <h2>
        <a href={`${CONSOLE_PATH}/sessions/${item.sessionId}`}>
          {item.type.toUpperCase()} · {item.appName ?? text('en', 'console.noAppName')}
        </a>
      </h2>
      <dl>
        <dt>{say('en', 'console.field.organization')}</dt>
        <dd>{item.organization.name}</dd>
        <dt>{say('en', 'console.field.decision')}</dt>
        <dd>{item.decision === null ? '—' : statusName(item.decision)}</dd>
        <dt>{say('en', 'console.field.decidedBy')}</dt>
        <dd>
          <ActorName actor={item.decidedBy} reviewerId={reviewerId} />
        </dd>
        <dt>{say('en', 'console.field.decidedAt')}</dt>
        <dd>
          <When at={item.decidedAt} />
        </dd>
        <dt>{say('en', 'console.field.reason')}</dt>
        <dd>{item.reason ?? '—'}</dd>
        <dt>{say('en', 'console.field.status')}</dt>
        <dd>{item.status}</dd>
        <dt>{say('en', 'console.field.environment')}</dt>
        <dd>{item.environment}</dd>
        <dt>{say('en', 'console.field.session')}</dt>
        <dd>
          <code>{item.sessionId}</code>
        </dd>
      </dl>
    </li>
  ));
  return page({
    title: text('en', 'console.decided.title'),
    signedIn: true,
    csrfToken,
    body: (
      <>
        <ListTabs current="decided" />
        <h1>{say('en', 'console.decided.heading')}</h1>
        <Message text={notice} />
        {decided.reviews.length === 0 ? (
          <p>{say('en', 'console.decided.empty')}</p>
        ) : (
          <>
            <p>{say('en', 'console.decided.order')}</p>
            <ol class="queue">{rows}</ol>
          </>
        )}
        {decided.nextCursor === null ? null : (
          <p>
            <a href={`${DECIDED_PATH}?cursor=${encodeURIComponent(decided.nextCursor)}`}>
              {say('en', 'console.decided.older')}
            </a>
          </p>
        )}
      </>
    ),
  });
}
