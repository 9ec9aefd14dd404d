/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { ApiKeyEnvironment } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { WebhookEndpointView, WebhookSecretView } from '../../webhooks/index.js';
import { developersPage, formAction, ReadOnlyNote, SecretPanel } from './developers-frame.js';
import { formatMoment } from './format.js';
import { CsrfField, type SignedInFrame } from './layout.js';
import { WEBHOOK_ENDPOINT_PATH } from './nav.js';

// The webhook endpoint of the environment shown (docs/decisions.md#dashboard-pages): its URL, the forms to set and to
// clear it, URLs disabled after a 410 Gone, a test event, and the signing secret: shown once (on the answer to its form) and
// rotated.

export const SET_URL_PATH = WEBHOOK_ENDPOINT_PATH;
export const CLEAR_URL_PATH = `${WEBHOOK_ENDPOINT_PATH}/clear`;
export const REVEAL_SECRET_PATH = `${WEBHOOK_ENDPOINT_PATH}/secret/reveal`;
export const ROTATE_SECRET_PATH = `${WEBHOOK_ENDPOINT_PATH}/secret/rotate`;
export const TEST_EVENT_PATH = `${WEBHOOK_ENDPOINT_PATH}/test`;

export interface WebhookEndpointPageView {
  locale: Locale;
  signedIn: SignedInFrame & { environment: ApiKeyEnvironment };
  endpoint: WebhookEndpointView;
  mayWrite: boolean;
  /** The URL typed, kept when it was refused. */
  url?: string | undefined;
  /** A secret just revealed or rotated, on the answer to that form only. */
  secret?: WebhookSecretView | undefined;
  notice?: string | undefined;
  problem?: string | undefined;
}

function PostButton(props: { action: string; token: string; label: string; primary?: boolean; hint?: string }) {
  return (
    <form method="post" action={props.action} class="stack">
      <CsrfField token={props.token} />
      {props.hint === undefined ? null : <p class="hint">{props.hint}</p>}
      <div>
        <button type="submit" class={props.primary ? 'primary' : undefined}>
          {props.label}
        </button>
      </div>
    </form>
  );
}

function UrlSection({ view }: { view: WebhookEndpointPageView }) {
  const { locale, signedIn, endpoint } = view;
  return (
    <>
      <p>
        {endpoint.defaultUrl === null
          ? say(locale, 'dashboard.developers.webhooks.none')
          : say(locale, 'dashboard.developers.webhooks.current', {
              url: <span class="mono">{endpoint.defaultUrl}</span>,
            })}
      </p>
      {view.mayWrite ? (
        <form method="post" action={formAction(SET_URL_PATH, signedIn)} class="stack">
          <CsrfField token={signedIn.csrfToken} />
          <label for="webhook-url">{say(locale, 'dashboard.developers.webhooks.url')}</label>
          <input
            id="webhook-url"
            type="url"
            name="url"
            required
            maxlength={2048}
            value={view.url ?? endpoint.defaultUrl ?? ''}
            aria-describedby="webhook-url-hint"
          />
          <span class="hint" id="webhook-url-hint">
            {say(locale, 'dashboard.developers.webhooks.urlHint')}
          </span>
          <div>
            <button type="submit" class="primary">
              {say(locale, 'dashboard.developers.webhooks.save')}
            </button>
          </div>
        </form>
      ) : null}
      {view.mayWrite && endpoint.defaultUrl !== null ? (
        <PostButton
          action={formAction(CLEAR_URL_PATH, signedIn)}
          token={signedIn.csrfToken}
          label={text(locale, 'dashboard.developers.webhooks.clear')}
          hint={text(locale, 'dashboard.developers.webhooks.clearHint')}
        />
      ) : null}
      {endpoint.disabledTargets.length === 0 ? null : (
        <>
          <p>{say(locale, 'dashboard.developers.webhooks.disabled')}</p>
          <ul>
            {endpoint.disabledTargets.map((target) => (
              <li class="mono">
                {say(locale, 'dashboard.developers.webhooks.disabledOn', {
                  url: target.url,
                  at: formatMoment(locale, target.disabledAt),
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function SecretSection({ view }: { view: WebhookEndpointPageView }) {
  const { locale, signedIn, endpoint } = view;
  return (
    <>
      <h2>{say(locale, 'dashboard.developers.webhooks.secretHeading')}</h2>
      <p>
        {endpoint.secretRevealedAt === null
          ? say(locale, 'dashboard.developers.webhooks.secretNotShown')
          : say(locale, 'dashboard.developers.webhooks.secretShownOn', {
              at: formatMoment(locale, endpoint.secretRevealedAt),
            })}
      </p>
      {endpoint.previousSecretExpiresAt === null ? null : (
        <p>
          {say(locale, 'dashboard.developers.webhooks.rotating', {
            at: formatMoment(locale, endpoint.previousSecretExpiresAt),
          })}
        </p>
      )}
      {view.mayWrite && !endpoint.secretRevealed ? (
        <PostButton
          action={formAction(REVEAL_SECRET_PATH, signedIn)}
          token={signedIn.csrfToken}
          label={text(locale, 'dashboard.developers.webhooks.reveal')}
          primary
        />
      ) : null}
      {view.mayWrite ? (
        <PostButton
          action={formAction(ROTATE_SECRET_PATH, signedIn)}
          token={signedIn.csrfToken}
          label={text(locale, 'dashboard.developers.webhooks.rotate')}
          hint={text(locale, 'dashboard.developers.webhooks.rotateHint')}
        />
      ) : null}
    </>
  );
}

export function webhookEndpointPage(view: WebhookEndpointPageView): string {
  const { locale, signedIn, endpoint, secret } = view;
  return developersPage({
    locale,
    signedIn,
    title: 'dashboard.developers.webhooks.title',
    path: WEBHOOK_ENDPOINT_PATH,
    section: WEBHOOK_ENDPOINT_PATH,
    notice: view.notice,
    problem: view.problem,
    body: (
      <>
        {secret === undefined ? null : (
          <SecretPanel
            heading={text(locale, 'dashboard.developers.webhooks.secretTitle')}
            hint={text(locale, 'dashboard.developers.webhooks.secretCopy')}
            label={text(locale, 'dashboard.developers.webhooks.secretLabel')}
            secret={secret.secret}
          />
        )}
        <p>{say(locale, `dashboard.developers.webhooks.intro.${signedIn.environment}`)}</p>
        <UrlSection view={view} />
        {view.mayWrite && endpoint.defaultUrl !== null ? (
          <>
            <h2>{say(locale, 'dashboard.developers.webhooks.testHeading')}</h2>
            <PostButton
              action={formAction(TEST_EVENT_PATH, signedIn)}
              token={signedIn.csrfToken}
              label={text(locale, 'dashboard.developers.webhooks.test')}
              hint={text(locale, 'dashboard.developers.webhooks.testHint')}
            />
          </>
        ) : null}
        <SecretSection view={view} />
        {view.mayWrite ? null : <ReadOnlyNote locale={locale} />}
      </>
    ),
  });
}
