/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { say } from '@platform/templates';
import type { ReviewQueuePage } from '../reviews/index.js';
import { ActorName, statusName, When } from './page-parts.js';
import { reviewListPage } from './review-list.js';

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
  return reviewListPage({
    list: 'decided',
    reviews: decided,
    csrfToken,
    notice,
    fields: (item) => (
      <>
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
      </>
    ),
  });
}
