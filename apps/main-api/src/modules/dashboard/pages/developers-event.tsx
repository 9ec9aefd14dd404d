/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type BilingualKey, type Locale, say, text } from '@platform/templates';
import type { WebhookEventDetailView } from '../../webhook-deliveries/index.js';
import { developersPage, eventPath, formAction } from './developers-frame.js';
import { formatMoment } from './format.js';
import { CsrfField, type SignedInFrame } from './layout.js';
import { DELIVERY_LOG_PATH } from './nav.js';

// One webhook event (docs/decisions.md#dashboard-pages): its facts, every try of every delivery (time, URL, status,
// latency, outcome, the scrubbed start of the answer or why none came), the body it sends, and the Redeliver form:
// the same `webhook-id`, sent again now.

export interface EventPageView {
  locale: Locale;
  signedIn: SignedInFrame;
  event: WebhookEventDetailView;
  mayWrite: boolean;
  notice?: string | undefined;
}

const redeliverPath = (eventId: string) => `${eventPath(eventId)}/redeliver`;

function Facts({ locale, event }: { locale: Locale; event: WebhookEventDetailView }) {
  const row = (label: BilingualKey, value: string, mono = false) => (
    <>
      <dt>{say(locale, label)}</dt>
      <dd class={mono ? 'mono' : undefined}>{value}</dd>
    </>
  );
  return (
    <dl class="facts">
      {row('dashboard.developers.event.id', event.id, true)}
      {row('dashboard.developers.events.type', event.type, true)}
      {row('dashboard.developers.keys.environment', text(locale, `dashboard.environment.${event.environment}`))}
      {row('dashboard.developers.events.outcome', text(locale, `dashboard.developers.outcome.${event.outcome}`))}
      {row('dashboard.developers.events.created', formatMoment(locale, event.createdAt))}
      {row('dashboard.developers.event.deliveries', String(event.deliveries))}
      {event.deliveredAt === null
        ? null
        : row('dashboard.developers.event.deliveredAt', formatMoment(locale, event.deliveredAt))}
      {event.nextAttemptAt === null
        ? null
        : row('dashboard.developers.event.nextTry', formatMoment(locale, event.nextAttemptAt))}
      {event.lastError === null ? null : row('dashboard.developers.event.lastError', event.lastError)}
    </dl>
  );
}

function Attempts({ locale, event }: { locale: Locale; event: WebhookEventDetailView }) {
  if (event.attempts.length === 0) return <p>{say(locale, 'dashboard.developers.event.noAttempts')}</p>;
  // Cards rather than a table: a try has seven facts, more than a phone's width holds side by side.
  return (
    <ul class="cards" aria-label={text(locale, 'dashboard.developers.event.attemptsCaption')}>
      {event.attempts.map((attempt) => (
        <li class="card">
          <h3>
            {say(locale, 'dashboard.developers.event.tryHeading', {
              delivery: attempt.delivery,
              attempt: attempt.attempt,
            })}
          </h3>
          <dl class="facts">
            <dt>{say(locale, 'dashboard.developers.events.created')}</dt>
            <dd>{formatMoment(locale, attempt.at)}</dd>
            <dt>{say(locale, 'dashboard.developers.event.statusCode')}</dt>
            <dd>
              {attempt.statusCode === null
                ? say(locale, 'dashboard.developers.event.none')
                : String(attempt.statusCode)}
            </dd>
            <dt>{say(locale, 'dashboard.developers.event.latency')}</dt>
            <dd>{say(locale, 'dashboard.developers.event.ms', { ms: attempt.latencyMs })}</dd>
            <dt>{say(locale, 'dashboard.developers.events.outcome')}</dt>
            <dd>{say(locale, `dashboard.attemptOutcome.${attempt.outcome}`)}</dd>
            <dt>{say(locale, 'dashboard.developers.event.url')}</dt>
            <dd class="mono">{attempt.url}</dd>
            <dt>{say(locale, 'dashboard.developers.events.excerpt')}</dt>
            <dd class="mono">
              {attempt.responseExcerpt ?? attempt.error ?? say(locale, 'dashboard.developers.event.none')}
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

export function eventPage(view: EventPageView): string {
  const { locale, signedIn, event } = view;
  return developersPage({
    locale,
    signedIn,
    title: 'dashboard.developers.event.title',
    path: eventPath(event.id),
    section: DELIVERY_LOG_PATH,
    notice: view.notice,
    body: (
      <>
        <p>
          <a href={DELIVERY_LOG_PATH}>{say(locale, 'dashboard.developers.event.back')}</a>
        </p>
        <Facts locale={locale} event={event} />
        {view.mayWrite ? (
          <form method="post" action={formAction(redeliverPath(event.id), signedIn)} class="stack">
            <CsrfField token={signedIn.csrfToken} />
            <p class="hint">{say(locale, 'dashboard.developers.event.redeliverHint')}</p>
            <div>
              <button type="submit" class="primary">
                {say(locale, 'dashboard.developers.event.redeliver')}
              </button>
            </div>
          </form>
        ) : null}
        <h2>{say(locale, 'dashboard.developers.event.attempts')}</h2>
        <Attempts locale={locale} event={event} />
        <h2>{say(locale, 'dashboard.developers.event.body')}</h2>
        <pre class="body">{JSON.stringify(event.body, null, 2)}</pre>
      </>
    ),
  });
}
