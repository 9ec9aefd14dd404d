/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { DocumentKind } from '@platform/db';
import { type Child, HtmlPage, isMessageKey, renderPage, say, text } from '@platform/templates';
import type { ReviewActor } from '../reviews/index.js';
import { CONSOLE_STYLES } from './styles.js';

// What every page of the review console is made of: the frame (header, sign-out), the form token, messages, times,
// the two lists' tabs and the names of who moved a session. No script, no external asset, inline styles only (the
// CSP allows nothing else); texts from the catalog, every value escaped by the template layer
// (docs/decisions.md#html-templates).

/** Where the console lives on main-api. */
export const CONSOLE_PATH = '/review';
/** The decided sessions' list (docs/decisions.md#decided-reviews). */
export const DECIDED_PATH = `${CONSOLE_PATH}/decided`;

interface Frame {
  title: string;
  body: Child;
  csrfToken?: string | undefined;
  signedIn: boolean;
}

export function page({ title, body, csrfToken, signedIn }: Frame): string {
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

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export function Message({ text, kind = 'status' }: { text: string | undefined; kind?: 'status' | 'alert' }) {
  if (text === undefined) return null;
  return (
    <p class={`message ${kind}`} role={kind}>
      {text}
    </p>
  );
}

/** A time the service gives (ISO 8601), to the minute. */
export function When({ at }: { at: string | null }) {
  if (at === null) return <>—</>;
  const date = new Date(at);
  return <time datetime={date.toISOString()}>{date.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>;
}

/** The two lists, the one shown marked as the current page. */
export function ListTabs({ current }: { current: 'waiting' | 'decided' }) {
  const tabs = [
    { name: 'waiting', href: CONSOLE_PATH, label: say('en', 'console.nav.waiting') },
    { name: 'decided', href: DECIDED_PATH, label: say('en', 'console.nav.decided') },
  ] as const;
  return (
    <nav class="tabs" aria-label={text('en', 'console.nav.label')}>
      {tabs.map((tab) =>
        tab.name === current ? (
          <a href={tab.href} aria-current="page">
            {tab.label}
          </a>
        ) : (
          <a href={tab.href}>{tab.label}</a>
        ),
      )}
    </nav>
  );
}

/**
 * Who moved a session: "you", a reviewer by name and email (their user id without a profile), or the kind of any
 * other actor (`smile_id`, `test_value`, `hosted_page`, ...).
 */
export function ActorName({ actor, reviewerId }: { actor: ReviewActor | null; reviewerId: string }) {
  if (actor === null) return <>—</>;
  if (actor.kind !== 'reviewer' || actor.userId === null) return <code>{actor.kind}</code>;
  if (actor.userId === reviewerId) return <>{say('en', 'console.actor.you')}</>;
  if (actor.name !== null && actor.email !== null) return <>{`${actor.name} (${actor.email})`}</>;
  return <>{actor.name ?? actor.email ?? actor.userId}</>;
}

/** A verification status by its label in the catalog, or by its own name when the catalog has none. */
export function statusName(status: string): string {
  const key = `verificationStatus.${status}`;
  return isMessageKey(key) ? text('en', key) : status;
}

export function kindName(kind: DocumentKind): string {
  return text('en', `documentKind.${kind}`);
}
