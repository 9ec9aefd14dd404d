/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type BilingualKey, type Locale, say, text } from '@platform/templates';
import type { OrganizationSessionDetailView } from '../../verification-sessions/index.js';
import { formatMoment, formatWholeKes } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { VERIFICATIONS_PATH } from './nav.js';
import { sessionPath } from './verifications.js';

// One verification session (docs/decisions.md#dashboard-pages): its facts, its decision and reason, every status
// change with who made it, every callback sent about it with each try's answer, and the cancel while it may be.

export interface SessionView {
  locale: Locale;
  signedIn: SignedInFrame;
  detail: OrganizationSessionDetailView;
  /** Whether the role may cancel (the control is shown only then, and only while the status allows it). */
  mayCancel: boolean;
  notice?: string | undefined;
  problem?: string | undefined;
}

const CANCELABLE = new Set(['pending', 'requires_input']);
const actorKinds = new Set(['api_key', 'member', 'hosted_page', 'expiry_job', 'reviewer', 'smile_id', 'smile_id_job']);

function actorLabel(locale: Locale, kind: string): string {
  const key = (actorKinds.has(kind) ? `dashboard.actor.${kind}` : 'dashboard.actor.other') as BilingualKey;
  return text(locale, key);
}

function Facts({ locale, detail }: { locale: Locale; detail: OrganizationSessionDetailView }) {
  const { session } = detail;
  const row = (label: BilingualKey, value: string, mono = false) => (
    <>
      <dt>{say(locale, label)}</dt>
      <dd class={mono ? 'mono' : undefined}>{value}</dd>
    </>
  );
  return (
    <dl class="facts">
      {row('dashboard.session.id', session.sessionId, true)}
      {row('dashboard.verifications.type', text(locale, `dashboard.verificationType.${session.type}`))}
      {row('dashboard.verifications.status', text(locale, `verificationStatus.${session.status}`))}
      {row('dashboard.session.environment', text(locale, `dashboard.environment.${session.environment}`))}
      {row('dashboard.verifications.endUser', session.externalEndUserId, true)}
      {row(
        'dashboard.verifications.price',
        text(locale, 'dashboard.verifications.kes', { amount: formatWholeKes(session.price) }),
      )}
      {row('dashboard.verifications.created', formatMoment(locale, session.createdAt))}
      {session.completedAt === null
        ? row('dashboard.session.expires', formatMoment(locale, session.expiresAt))
        : row('dashboard.session.completed', formatMoment(locale, session.completedAt))}
      {session.lastError === null ? null : row('dashboard.session.lastError', session.lastError)}
    </dl>
  );
}

function Decision({ locale, detail }: { locale: Locale; detail: OrganizationSessionDetailView }) {
  const { decision } = detail;
  if (decision === null) return <p>{say(locale, 'dashboard.session.noDecision')}</p>;
  return (
    <>
      <p>
        <strong>{say(locale, `verificationStatus.${decision.outcome}`)}</strong>.{' '}
        {say(locale, 'dashboard.session.decidedBy', {
          source: text(locale, `dashboard.decisionSource.${decision.source}`),
          at: formatMoment(locale, decision.decidedAt),
        })}
      </p>
      {decision.reason === null ? null : <p>{say(locale, 'dashboard.session.reason', { reason: decision.reason })}</p>}
    </>
  );
}

function Timeline({ locale, detail }: { locale: Locale; detail: OrganizationSessionDetailView }) {
  return (
    <ol class="timeline">
      {detail.transitions.map((transition) => {
        const actor = actorLabel(locale, transition.actor.kind);
        return (
          <li>
            <time datetime={transition.at}>{formatMoment(locale, transition.at)}</time>:{' '}
            {transition.fromStatus === null
              ? say(locale, 'dashboard.session.created', { actor })
              : say(locale, 'dashboard.session.transition', {
                  to: text(locale, `verificationStatus.${transition.toStatus}`),
                  actor,
                })}
            {transition.reason === null ? null : <> ({transition.reason})</>}
          </li>
        );
      })}
    </ol>
  );
}

function Callbacks({ locale, detail }: { locale: Locale; detail: OrganizationSessionDetailView }) {
  if (detail.callbacks.length === 0) return <p>{say(locale, 'dashboard.session.noCallbacks')}</p>;
  return (
    <ul class="cards">
      {detail.callbacks.map((callback) => (
        <li class="card">
          <h3 class="mono">{callback.type}</h3>
          <p>
            {formatMoment(locale, callback.createdAt)}:{' '}
            {say(locale, `dashboard.session.callbackStatus.${callback.status}`)}
          </p>
          <ul>
            {callback.attempts.map((attempt) => (
              <li>
                {say(locale, 'dashboard.session.attempt', {
                  attempt: attempt.attempt,
                  delivery: attempt.delivery,
                  outcome: text(locale, `dashboard.attemptOutcome.${attempt.outcome}`),
                  answer:
                    attempt.statusCode === null
                      ? text(locale, 'dashboard.session.noAnswer')
                      : text(locale, 'dashboard.session.httpStatus', { status: attempt.statusCode }),
                  ms: attempt.durationMs,
                })}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

export function sessionPage(view: SessionView): string {
  const { locale, signedIn, detail } = view;
  const path = sessionPath(detail.session.sessionId);
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.session.title'),
    path,
    signedIn,
    body: (
      <>
        <p>
          <a href={VERIFICATIONS_PATH}>{say(locale, 'dashboard.session.back')}</a>
        </p>
        <h1>{say(locale, 'dashboard.session.title')}</h1>
        <Message text={view.notice} />
        <Message text={view.problem} kind="alert" />
        <h2>{say(locale, 'dashboard.session.summary')}</h2>
        <Facts locale={locale} detail={detail} />
        <h2>{say(locale, 'dashboard.session.decision')}</h2>
        <Decision locale={locale} detail={detail} />
        <h2>{say(locale, 'dashboard.session.timeline')}</h2>
        <Timeline locale={locale} detail={detail} />
        <h2>{say(locale, 'dashboard.session.callbacks')}</h2>
        <Callbacks locale={locale} detail={detail} />
        {view.mayCancel && CANCELABLE.has(detail.session.status) ? (
          <form method="post" action={`${path}/cancel`}>
            <CsrfField token={signedIn.csrfToken} />
            <p>{say(locale, 'dashboard.session.cancelHint')}</p>
            <button type="submit">{say(locale, 'dashboard.session.cancel')}</button>
          </form>
        ) : null}
      </>
    ),
  });
}
