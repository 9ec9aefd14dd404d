/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { isBilingualKey, type Locale, say, text } from '@platform/templates';
import type { AuditEventView } from '../../audit/index.js';
import { formatMoment } from './format.js';
import { dashboardPage, Message, type SignedInFrame } from './layout.js';
import { AUDIT_PATH } from './nav.js';

// The Audit log (docs/decisions.md#dashboard-pages): the filters as a GET form, so a filtered page is a link, then
// who did what and when, newest first, a page at a time with the API's cursor.

export interface AuditFilters {
  action?: string | undefined;
  /** Days (`2026-03-01`) in Nairobi time; `to` included. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface AuditView {
  locale: Locale;
  signedIn: SignedInFrame;
  organizationName: string;
  filters: AuditFilters;
  events: readonly AuditEventView[];
  /** The names of the organization's members by user id, to say who acted. */
  names: ReadonlyMap<string, string>;
  nextPage: string | null;
  laterPage: boolean;
  problem?: string | undefined;
}

/** The query of a filtered page: only the filters given. */
export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== '') query.set(name, value);
  }
  const written = query.toString();
  return written === '' ? '' : `?${written}`;
}

function Filters({ locale, filters }: { locale: Locale; filters: AuditFilters }) {
  return (
    <form method="get" action={AUDIT_PATH} class="filters top" aria-label={text(locale, 'dashboard.audit.filters')}>
      <div>
        <label for="filter-action">{say(locale, 'dashboard.audit.action')}</label>
        <input
          id="filter-action"
          type="search"
          name="action"
          maxlength={100}
          value={filters.action ?? ''}
          aria-describedby="action-hint"
        />
        <span class="hint" id="action-hint">
          {say(locale, 'dashboard.audit.actionHint')}
        </span>
      </div>
      <div>
        <label for="filter-from">{say(locale, 'dashboard.audit.from')}</label>
        <input id="filter-from" type="date" name="from" value={filters.from ?? ''} aria-describedby="date-hint" />
      </div>
      <div>
        <label for="filter-to">{say(locale, 'dashboard.audit.to')}</label>
        <input id="filter-to" type="date" name="to" value={filters.to ?? ''} aria-describedby="date-hint" />
        <span class="hint" id="date-hint">
          {say(locale, 'dashboard.audit.dateHint')}
        </span>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.audit.apply')}
        </button>
        <a href={AUDIT_PATH}>{say(locale, 'dashboard.audit.clear')}</a>
      </div>
    </form>
  );
}

function who(view: AuditView, event: AuditEventView): string {
  if (event.actorUserId === null) return text(view.locale, 'dashboard.audit.platform');
  return (
    view.names.get(event.actorUserId) ?? text(view.locale, 'dashboard.audit.formerMember', { user: event.actorUserId })
  );
}

/** An action's words where the catalog has them (the team's), else its name as the API writes it. */
function whatOf(locale: Locale, action: string): string | undefined {
  const key = `dashboard.audit.action.${action}`;
  return isBilingualKey(key) ? text(locale, key) : undefined;
}

/** What changed, as `from: developer, to: admin`; nested values as JSON. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function EventTable({ view }: { view: AuditView }) {
  const { locale } = view;
  return (
    <div class="table">
      <table class="fit">
        <caption>{say(locale, 'dashboard.audit.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.audit.when')}</th>
            <th scope="col">{say(locale, 'dashboard.audit.who')}</th>
            <th scope="col">{say(locale, 'dashboard.audit.what')}</th>
          </tr>
        </thead>
        <tbody>
          {view.events.map((event) => {
            const words = whatOf(locale, event.action);
            const details = detailsOf(event.details);
            return (
              <tr>
                <td>
                  <time datetime={event.createdAt}>{formatMoment(locale, event.createdAt)}</time>
                </td>
                <td>
                  {who(view, event)}
                  {event.ip === null ? null : (
                    <span class="hint">{say(locale, 'dashboard.audit.ip', { ip: event.ip })}</span>
                  )}
                </td>
                <td>
                  {words === undefined ? null : <span class="what">{words}</span>}
                  <span class="mono">{event.action}</span>{' '}
                  <span class="mono">
                    {event.targetType} {event.targetId}
                  </span>
                  {details === '' ? null : <span class="mono hint">{details}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function auditPage(view: AuditView): string {
  const { locale, signedIn, filters } = view;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.audit.title'),
    path: AUDIT_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.audit.title')}</h1>
        <p>{say(locale, 'dashboard.audit.intro', { organization: view.organizationName })}</p>
        <Filters locale={locale} filters={filters} />
        <Message text={view.problem} kind="alert" />
        {view.problem !== undefined ? null : view.events.length === 0 ? (
          <p>{say(locale, 'dashboard.audit.empty')}</p>
        ) : (
          <EventTable view={view} />
        )}
        <p class="pager">
          {view.laterPage ? (
            <a href={`${AUDIT_PATH}${auditQuery(filters)}`}>{say(locale, 'dashboard.audit.first')}</a>
          ) : null}
          {view.nextPage === null ? null : <a href={view.nextPage}>{say(locale, 'dashboard.audit.next')}</a>}
        </p>
      </>
    ),
  });
}
