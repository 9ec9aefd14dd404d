/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import { webhookEventOutcomes } from '@platform/webhooks';
import type { WebhookAttemptView, WebhookLogEventView } from '../../webhook-deliveries/index.js';
import { developersPage, eventPath } from './developers-frame.js';
import { formatMoment } from './format.js';
import type { SignedInFrame } from './layout.js';
import { DELIVERY_LOG_PATH } from './nav.js';

// The delivery log of the environment shown (docs/decisions.md#dashboard-pages): the filters as a GET form (a
// filtered page is a link), each event with its outcome and latest try (time, status, latency, the scrubbed start of
// the answer), a page at a time with the API's cursor.

export interface EventFilters {
  type?: string | undefined;
  outcome?: string | undefined;
}

export interface DeliveryLogView {
  locale: Locale;
  signedIn: SignedInFrame & { environment: ApiKeyEnvironment };
  filters: EventFilters;
  events: readonly WebhookLogEventView[];
  nextPage: string | null;
  laterPage: boolean;
  problem?: string | undefined;
}

/** The query of a filtered page: only the filters given. */
export function eventFiltersQuery(filters: EventFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== '') query.set(name, value);
  }
  const search = query.toString();
  return search === '' ? '' : `?${search}`;
}

/** A try's answer in a few words: its status and latency, or that none came. */
function attemptAnswer(locale: Locale, attempt: WebhookAttemptView): string {
  return attempt.statusCode === null
    ? text(locale, 'dashboard.developers.events.noAnswer', { ms: attempt.latencyMs })
    : text(locale, 'dashboard.developers.events.answer', { status: attempt.statusCode, ms: attempt.latencyMs });
}

function Filters({ locale, filters }: { locale: Locale; filters: EventFilters }) {
  return (
    <form
      method="get"
      action={DELIVERY_LOG_PATH}
      class="filters"
      aria-label={text(locale, 'dashboard.developers.events.filters')}
    >
      <div>
        <label for="filter-type">{say(locale, 'dashboard.developers.events.type')}</label>
        <input
          id="filter-type"
          type="search"
          name="type"
          maxlength={100}
          value={filters.type ?? ''}
          aria-describedby="type-hint"
        />
        <span class="hint" id="type-hint">
          {say(locale, 'dashboard.developers.events.typeHint')}
        </span>
      </div>
      <div>
        <label for="filter-outcome">{say(locale, 'dashboard.developers.events.outcome')}</label>
        <select id="filter-outcome" name="outcome">
          <option value="">{say(locale, 'dashboard.developers.events.any')}</option>
          {webhookEventOutcomes.map((outcome) => (
            <option value={outcome} selected={outcome === filters.outcome}>
              {text(locale, `dashboard.developers.outcome.${outcome}`)}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.developers.events.apply')}
        </button>
        <a href={DELIVERY_LOG_PATH}>{say(locale, 'dashboard.developers.events.clear')}</a>
      </div>
    </form>
  );
}

function EventTable({ locale, events }: { locale: Locale; events: readonly WebhookLogEventView[] }) {
  return (
    <div class="table wide">
      <table>
        <caption>{say(locale, 'dashboard.developers.events.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.developers.events.created')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.events.type')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.events.outcome')}</th>
            <th scope="col" class="num">
              {say(locale, 'dashboard.developers.events.tries')}
            </th>
            <th scope="col">{say(locale, 'dashboard.developers.events.lastTry')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.events.excerpt')}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr>
              <td class="nowrap">
                <a href={eventPath(event.id)}>{formatMoment(locale, event.createdAt)}</a>
              </td>
              <td class="mono nowrap">{event.type}</td>
              <td>{say(locale, `dashboard.developers.outcome.${event.outcome}`)}</td>
              <td class="num">{event.attemptCount}</td>
              <td>
                {event.lastAttempt === null ? (
                  say(locale, 'dashboard.developers.events.notTried')
                ) : (
                  <>
                    {formatMoment(locale, event.lastAttempt.at)}
                    <br />
                    {attemptAnswer(locale, event.lastAttempt)}
                  </>
                )}
              </td>
              <td class="mono excerpt">{event.lastAttempt?.responseExcerpt ?? event.lastAttempt?.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function deliveryLogPage(view: DeliveryLogView): string {
  const { locale, signedIn, filters } = view;
  return developersPage({
    locale,
    signedIn,
    title: 'dashboard.developers.events.title',
    path: DELIVERY_LOG_PATH,
    section: DELIVERY_LOG_PATH,
    problem: view.problem,
    body: (
      <>
        <p>{say(locale, `dashboard.developers.events.intro.${signedIn.environment}`)}</p>
        <Filters locale={locale} filters={filters} />
        {view.problem !== undefined ? null : view.events.length === 0 ? (
          <p>{say(locale, 'dashboard.developers.events.empty')}</p>
        ) : (
          <EventTable locale={locale} events={view.events} />
        )}
        <p class="pager">
          {view.laterPage ? (
            <a href={`${DELIVERY_LOG_PATH}${eventFiltersQuery(filters)}`}>
              {say(locale, 'dashboard.developers.events.first')}
            </a>
          ) : null}
          {view.nextPage === null ? null : (
            <a href={view.nextPage}>{say(locale, 'dashboard.developers.events.next')}</a>
          )}
        </p>
      </>
    ),
  });
}
