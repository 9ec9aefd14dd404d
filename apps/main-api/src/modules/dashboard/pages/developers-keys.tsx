/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { ApiKeyView, CreatedApiKeyView } from '../../api-keys/index.js';
import { API_KEYS_PATH, developersPage, formAction, ReadOnlyNote, SecretPanel } from './developers-frame.js';
import { formatMoment } from './format.js';
import { CsrfField, type SignedInFrame } from './layout.js';

// The API keys of the environment shown (docs/decisions.md#dashboard-pages): the list with a revoke form per active
// key, and the create form; its answer shows the new secret once. Live keys of an organization not activated yet are
// locked: the page says why and links to the activation instead of the form.

const ACTIVATION_PATH = '/dashboard/activation';

export interface ApiKeysView {
  locale: Locale;
  signedIn: SignedInFrame & { environment: ApiKeyEnvironment };
  organizationName: string;
  keys: readonly ApiKeyView[];
  /** Whether the role may create and revoke (the forms are shown only then). */
  mayWrite: boolean;
  /** Whether the role may give a key `verified_data:read` (docs/decisions.md#verified-data): the checkbox is shown only then. */
  mayGiveVerifiedData: boolean;
  /** The checkbox as sent, kept when the form was refused. */
  readVerifiedData?: boolean | undefined;
  /** Whether live keys wait for the organization's activation (only asked on live pages). */
  liveLocked: boolean;
  /** The key just created, on the answer to the create form only. */
  created?: CreatedApiKeyView | undefined;
  /** The name typed, kept when it was refused. */
  name?: string | undefined;
  /** The highest requests a minute a key of the organization may have. */
  rateLimitMax: number;
  /** The requests a minute typed, kept when the form was refused; whether it was the field refused. */
  rateLimit?: string | undefined;
  rateLimitRefused?: boolean | undefined;
  notice?: string | undefined;
  problem?: string | undefined;
}

const revokePath = (keyId: string) => `${API_KEYS_PATH}/keys/${encodeURIComponent(keyId)}/revoke`;
export const CREATE_KEY_PATH = `${API_KEYS_PATH}/keys`;

function KeyTable({ view }: { view: ApiKeysView }) {
  const { locale, keys, signedIn } = view;
  return (
    // Focusable, as it scrolls sideways on a phone and holds nothing else to focus.
    <section class="table wide" tabindex={0} aria-label={text(locale, 'dashboard.developers.keys.caption')}>
      <table>
        <caption>{say(locale, 'dashboard.developers.keys.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{say(locale, 'dashboard.developers.keys.name')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.key')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.environment')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.created')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.lastUsed')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.rateLimit')}</th>
            <th scope="col">{say(locale, 'dashboard.developers.keys.status')}</th>
            {view.mayWrite ? <th scope="col">{say(locale, 'dashboard.developers.keys.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td>{key.name}</td>
              <td class="mono nowrap">{`${key.prefix}…${key.lastFour}`}</td>
              <td>{say(locale, `dashboard.environment.${key.environment}`)}</td>
              <td>{formatMoment(locale, key.createdAt)}</td>
              <td>
                {key.lastUsedAt === null
                  ? say(locale, 'dashboard.developers.keys.never')
                  : formatMoment(locale, key.lastUsedAt)}
              </td>
              <td>
                {key.rateLimitPerMinute === null
                  ? say(locale, 'dashboard.developers.keys.defaultLimit')
                  : say(locale, 'dashboard.developers.keys.perMinute', { count: key.rateLimitPerMinute })}
              </td>
              <td>
                {key.revokedAt === null
                  ? say(locale, 'dashboard.developers.keys.active')
                  : say(locale, 'dashboard.developers.keys.revokedOn', { at: formatMoment(locale, key.revokedAt) })}
              </td>
              {view.mayWrite ? (
                <td>
                  {key.revokedAt === null ? (
                    <form method="post" action={formAction(revokePath(key.id), signedIn)} class="inline">
                      <CsrfField token={signedIn.csrfToken} />
                      <button
                        type="submit"
                        aria-label={text(locale, 'dashboard.developers.keys.revokeLabel', { name: key.name })}
                      >
                        {say(locale, 'dashboard.developers.keys.revoke')}
                      </button>
                    </form>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CreateForm({ view }: { view: ApiKeysView }) {
  const { locale, signedIn } = view;
  const environment = signedIn.environment;
  if (environment === 'live' && view.liveLocked) {
    return (
      <p class="message alert">
        {say(locale, 'dashboard.developers.keys.locked')}{' '}
        <a href={ACTIVATION_PATH}>{say(locale, 'dashboard.developers.keys.activate')}</a>
      </p>
    );
  }
  return (
    <form method="post" action={formAction(CREATE_KEY_PATH, signedIn)} class="stack">
      <h2>{say(locale, `dashboard.developers.keys.create.${environment}`)}</h2>
      <CsrfField token={signedIn.csrfToken} />
      <label for="key-name">{say(locale, 'dashboard.developers.keys.name')}</label>
      <input
        id="key-name"
        type="text"
        name="name"
        required
        maxlength={100}
        value={view.name ?? ''}
        aria-describedby="key-name-hint"
      />
      <span class="hint" id="key-name-hint">
        {say(locale, 'dashboard.developers.keys.nameHint')}
      </span>
      <label for="key-rate-limit">{say(locale, 'dashboard.developers.keys.rateLimitField')}</label>
      <input
        id="key-rate-limit"
        type="text"
        inputmode="numeric"
        name="rateLimitPerMinute"
        pattern="[0-9]*"
        maxlength={6}
        value={view.rateLimit ?? ''}
        aria-describedby="key-rate-limit-hint"
        aria-invalid={view.rateLimitRefused ? 'true' : undefined}
      />
      <span class="hint" id="key-rate-limit-hint">
        {say(locale, 'dashboard.developers.keys.rateLimitHint', { max: view.rateLimitMax })}
      </span>
      {view.mayGiveVerifiedData ? (
        <>
          <label for="key-read-verified-data">
            <input
              id="key-read-verified-data"
              type="checkbox"
              name="readVerifiedData"
              value="yes"
              checked={view.readVerifiedData === true}
              aria-describedby="key-read-verified-data-hint"
            />{' '}
            {say(locale, 'dashboard.developers.keys.readVerifiedData')}
          </label>
          <span class="hint" id="key-read-verified-data-hint">
            {say(locale, 'dashboard.developers.keys.readVerifiedDataHint')}
          </span>
        </>
      ) : null}
      <div>
        <button type="submit" class="primary">
          {say(locale, 'dashboard.developers.keys.submit')}
        </button>
      </div>
    </form>
  );
}

export function apiKeysPage(view: ApiKeysView): string {
  const { locale, signedIn, created } = view;
  return developersPage({
    locale,
    signedIn,
    title: 'dashboard.developers.keys.title',
    path: API_KEYS_PATH,
    section: API_KEYS_PATH,
    notice: view.notice,
    problem: view.problem,
    body: (
      <>
        {created === undefined ? null : (
          <SecretPanel
            heading={text(locale, 'dashboard.developers.keys.secretHeading', { name: created.name })}
            hint={text(locale, 'dashboard.developers.keys.secretHint')}
            label={text(locale, 'dashboard.developers.keys.secretLabel')}
            secret={created.secret}
          />
        )}
        <p>
          {say(locale, `dashboard.developers.keys.intro.${signedIn.environment}`, {
            organization: view.organizationName,
          })}
        </p>
        {view.keys.length === 0 ? <p>{say(locale, 'dashboard.developers.keys.empty')}</p> : <KeyTable view={view} />}
        {view.mayWrite ? <CreateForm view={view} /> : <ReadOnlyNote locale={locale} />}
      </>
    ),
  });
}
