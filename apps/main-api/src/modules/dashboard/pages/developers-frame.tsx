/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type BilingualKey, type Child, type Locale, say, text } from '@platform/templates';
import { dashboardPage, Message, type SignedInFrame } from './layout.js';
import { ALLOWED_ORIGINS_PATH, DELIVERY_LOG_PATH, DEVELOPERS_PATH, WEBHOOK_ENDPOINT_PATH } from './nav.js';

/** The API keys page is the Developers page's first. */
export const API_KEYS_PATH = DEVELOPERS_PATH;

// What the Developers pages share (docs/decisions.md#dashboard-pages): their paths, the small navigation between
// them, the note for a role that may only read, the one-time secret panel, and form actions that name the
// organization and the environment the page showed, so a form acts on what its page showed even if another tab
// switched the toggle since. Their paths are in nav.ts, with the pages that show the test/live toggle.

export function eventPath(eventId: string): string {
  return `${DELIVERY_LOG_PATH}/${encodeURIComponent(eventId)}`;
}

const sections: readonly [string, BilingualKey][] = [
  [API_KEYS_PATH, 'dashboard.developers.keys.title'],
  [WEBHOOK_ENDPOINT_PATH, 'dashboard.developers.webhooks.title'],
  [DELIVERY_LOG_PATH, 'dashboard.developers.events.title'],
  [ALLOWED_ORIGINS_PATH, 'dashboard.developers.origins.title'],
];

/** A form's action: the path, for the organization and the environment the page shows. */
export function formAction(path: string, signedIn: SignedInFrame): string {
  const query = new URLSearchParams();
  if (signedIn.organization) query.set('org', signedIn.organization.id);
  if (signedIn.environment !== undefined) query.set('env', signedIn.environment);
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

export interface DevelopersPageProps {
  locale: Locale;
  signedIn: SignedInFrame;
  /** The page's heading and title. */
  title: BilingualKey;
  /** The page's own path; `section` is the sub-navigation entry it belongs to (an event's page: the log). */
  path: string;
  section: string;
  notice?: string | undefined;
  problem?: string | undefined;
  body: Child;
}

export function developersPage({ locale, signedIn, title, path, section, notice, problem, body }: DevelopersPageProps) {
  return dashboardPage({
    locale,
    title: text(locale, title),
    path,
    signedIn,
    body: (
      <>
        <nav aria-label={text(locale, 'dashboard.developers.subnav')} class="subnav">
          <ul>
            {sections.map(([href, label]) => (
              <li>
                <a href={href} aria-current={href === section ? 'page' : undefined}>
                  {say(locale, label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <h1>{say(locale, title)}</h1>
        <Message text={notice} />
        <Message text={problem} kind="alert" />
        {body}
      </>
    ),
  });
}

/** For a role that may read but not change: why there are no forms. */
export function ReadOnlyNote({ locale }: { locale: Locale }) {
  return <p class="hint">{say(locale, 'dashboard.developers.readOnly')}</p>;
}

/** A secret shown once, on the answer to the form that made it (never in a URL, a redirect or a log line). */
export function SecretPanel(props: { heading: string; hint: string; label: string; secret: string }) {
  return (
    <section class="secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading">{props.heading}</h2>
      <p>{props.hint}</p>
      <label for="secret-value">{props.label}</label>
      <textarea id="secret-value" class="mono" readonly rows={2} autocomplete="off" spellcheck={false}>
        {props.secret}
      </textarea>
    </section>
  );
}
