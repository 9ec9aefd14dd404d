/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type ApiKeyEnvironment, MAX_ALLOWED_ORIGINS } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import { developersPage, formAction, ReadOnlyNote } from './developers-frame.js';
import { CsrfField, type SignedInFrame } from './layout.js';
import { ALLOWED_ORIGINS_PATH } from './nav.js';

// The allowed origins of the environment shown (docs/decisions.md#dashboard-pages): the list with a remove form per
// origin and the add form. Both send the whole new list to the service of `PUT .../allowed-origins/:environment`.

export const ADD_ORIGIN_PATH = ALLOWED_ORIGINS_PATH;
export const REMOVE_ORIGIN_PATH = `${ALLOWED_ORIGINS_PATH}/remove`;

export interface AllowedOriginsPageView {
  locale: Locale;
  signedIn: SignedInFrame & { environment: ApiKeyEnvironment };
  origins: readonly string[];
  mayWrite: boolean;
  /** The origin typed, kept when it was refused. */
  origin?: string | undefined;
  notice?: string | undefined;
  problem?: string | undefined;
}

function OriginList({ view }: { view: AllowedOriginsPageView }) {
  const { locale, signedIn } = view;
  if (view.origins.length === 0) return <p>{say(locale, 'dashboard.developers.origins.empty')}</p>;
  return (
    <ul class="rows" aria-label={text(locale, 'dashboard.developers.origins.listLabel')}>
      {view.origins.map((origin) => (
        <li>
          <span class="mono">{origin}</span>
          {view.mayWrite ? (
            <form method="post" action={formAction(REMOVE_ORIGIN_PATH, signedIn)} class="inline">
              <CsrfField token={signedIn.csrfToken} />
              <input type="hidden" name="origin" value={origin} />
              <button type="submit" aria-label={text(locale, 'dashboard.developers.origins.removeLabel', { origin })}>
                {say(locale, 'dashboard.developers.origins.remove')}
              </button>
            </form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function AddForm({ view }: { view: AllowedOriginsPageView }) {
  const { locale, signedIn } = view;
  return (
    <form method="post" action={formAction(ADD_ORIGIN_PATH, signedIn)} class="stack">
      <CsrfField token={signedIn.csrfToken} />
      <label for="origin">{say(locale, 'dashboard.developers.origins.origin')}</label>
      <input
        id="origin"
        type="url"
        name="origin"
        required
        maxlength={300}
        value={view.origin ?? ''}
        aria-describedby="origin-hint"
      />
      <span class="hint" id="origin-hint">
        {say(locale, 'dashboard.developers.origins.originHint', { max: MAX_ALLOWED_ORIGINS })}
      </span>
      <div>
        <button type="submit" class="primary">
          {say(locale, 'dashboard.developers.origins.add')}
        </button>
      </div>
    </form>
  );
}

export function allowedOriginsPage(view: AllowedOriginsPageView): string {
  const { locale, signedIn } = view;
  return developersPage({
    locale,
    signedIn,
    title: 'dashboard.developers.origins.title',
    path: ALLOWED_ORIGINS_PATH,
    section: ALLOWED_ORIGINS_PATH,
    notice: view.notice,
    problem: view.problem,
    body: (
      <>
        <p>{say(locale, `dashboard.developers.origins.intro.${signedIn.environment}`)}</p>
        <OriginList view={view} />
        {view.mayWrite ? <AddForm view={view} /> : <ReadOnlyNote locale={locale} />}
      </>
    ),
  });
}
