/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { verificationStatuses, verificationTypes } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { OrganizationSessionView } from '../../verification-sessions/index.js';
import { formatMoment, formatWholeKes } from './format.js';
import { dashboardPage, Message, type SignedInFrame } from './layout.js';
import { VERIFICATIONS_PATH } from './nav.js';

// The Verifications list (docs/decisions.md#dashboard-pages): the filters as a GET form, so a filtered page is a link
// to share or bookmark, then a table of the sessions of the environment shown, a page at a time.

export interface VerificationFilters {
  status?: string | undefined;
  type?: string | undefined;
  externalEndUserId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface VerificationsView {
  locale: Locale;
  signedIn: SignedInFrame;
  organizationName: string;
  filters: VerificationFilters;
  sessions: readonly OrganizationSessionView[];
  /** The next page's link, or null on the last page. */
  nextPage: string | null;
  /** Whether this is a later page (then a link back to the first). */
  laterPage: boolean;
  /** Why the filters were refused, shown instead of the table. */
  problem?: string | undefined;
}

/** The query of a filtered list page: only the filters given. */
export function filtersQuery(filters: VerificationFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== '') query.set(name, value);
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

export function sessionPath(sessionId: string): string {
  return `${VERIFICATIONS_PATH}/${encodeURIComponent(sessionId)}`;
}

function Choice(props: {
  locale: Locale;
  name: string;
  label: string;
  value: string | undefined;
  options: readonly [string, string][];
}) {
  return (
    <div>
      <label for={`filter-${props.name}`}>{props.label}</label>
      <select id={`filter-${props.name}`} name={props.name}>
        <option value="">{say(props.locale, 'dashboard.verifications.any')}</option>
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Filters({ locale, filters }: { locale: Locale; filters: VerificationFilters }) {
  const dateHint = text(locale, 'dashboard.verifications.dateHint');
  return (
    <form
      method="get"
      action={VERIFICATIONS_PATH}
      class="filters"
      aria-label={text(locale, 'dashboard.verifications.filters')}
    >
      <Choice
        locale={locale}
        name="status"
        label={text(locale, 'dashboard.verifications.status')}
        value={filters.status}
        options={verificationStatuses.map((status) => [status, text(locale, `verificationStatus.${status}`)])}
      />
      <Choice
        locale={locale}
        name="type"
        label={text(locale, 'dashboard.verifications.type')}
        value={filters.type}
        options={verificationTypes.map((type) => [type, text(locale, `dashboard.verificationType.${type}`)])}
      />
      <div>
        <label for="filter-external">{say(locale, 'dashboard.verifications.externalEndUserId')}</label>
        <input
          id="filter-external"
          type="search"
          name="externalEndUserId"
          maxlength={255}
          value={filters.externalEndUserId ?? ''}
        />
      </div>
      <div>
        <label for="filter-from">{say(locale, 'dashboard.verifications.from')}</label>
        <input id="filter-from" type="date" name="from" value={filters.from ?? ''} aria-describedby="date-hint" />
      </div>
      <div>
        <label for="filter-to">{say(locale, 'dashboard.verifications.to')}</label>
        <input id="filter-to" type="date" name="to" value={filters.to ?? ''} aria-describedby="date-hint" />
        <span class="hint" id="date-hint">
          {dateHint}
        </span>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {say(locale, 'dashboard.verifications.apply')}
        </button>
        <a href={VERIFICATIONS_PATH}>{say(locale, 'dashboard.verifications.clear')}</a>
      </div>
    </form>
  );
}

function SessionTable({ locale, sessions }: { locale: Locale; sessions: readonly OrganizationSessionView[] }) {
  // Every row names one of a handful of types and statuses: each said once a page, not once a row.
  const typeLabels = new Map(
    verificationTypes.map((type) => [type, say(locale, `dashboard.verificationType.${type}`)]),
  );
  const statusLabels = new Map(
    verificationStatuses.map((status) => [status, say(locale, `verificationStatus.${status}`)]),
  );
  return (
    <div class="table">
      <table>
        <caption>{say(locale, 'dashboard.verifications.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.verifications.created')}</th>
            <th scope="col">{say(locale, 'dashboard.verifications.type')}</th>
            <th scope="col">{say(locale, 'dashboard.verifications.status')}</th>
            <th scope="col">{say(locale, 'dashboard.verifications.endUser')}</th>
            <th scope="col" class="num">
              {say(locale, 'dashboard.verifications.price')}
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr>
              <td>
                <a href={sessionPath(session.sessionId)}>{formatMoment(locale, session.createdAt)}</a>
              </td>
              <td>{typeLabels.get(session.type) ?? say(locale, `dashboard.verificationType.${session.type}`)}</td>
              <td>{statusLabels.get(session.status) ?? say(locale, `verificationStatus.${session.status}`)}</td>
              <td class="mono">{session.externalEndUserId}</td>
              <td class="num">
                {say(locale, 'dashboard.verifications.kes', { amount: formatWholeKes(session.price) })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function verificationsPage(view: VerificationsView): string {
  const { locale, signedIn, filters } = view;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.verifications.title'),
    path: VERIFICATIONS_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.verifications.title')}</h1>
        <p>
          {say(locale, `dashboard.verifications.intro.${signedIn.environment ?? 'test'}`, {
            organization: view.organizationName,
          })}
        </p>
        <Filters locale={locale} filters={filters} />
        <Message text={view.problem} kind="alert" />
        {view.problem !== undefined ? null : view.sessions.length === 0 ? (
          <p>{say(locale, 'dashboard.verifications.empty')}</p>
        ) : (
          <SessionTable locale={locale} sessions={view.sessions} />
        )}
        <p class="pager">
          {view.laterPage ? (
            <a href={`${VERIFICATIONS_PATH}${filtersQuery(filters)}`}>{say(locale, 'dashboard.verifications.first')}</a>
          ) : null}
          {view.nextPage === null ? null : <a href={view.nextPage}>{say(locale, 'dashboard.verifications.next')}</a>}
        </p>
      </>
    ),
  });
}
