/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import type { ActivationView } from '../../activation/index.js';
import { formatMoment } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { ACTIVATION_PATH, DASHBOARD_PATH } from './nav.js';

// Going live (docs/decisions.md#dashboard-pages): why live keys and live top-ups wait for the business verification,
// where the organization's stands, and for an owner the form that starts it (or goes on with the open one) on the
// hosted verification page. Once activated, the way to live keys.

/** Live keys are what activation unlocks: the link opens the Developers page on live data. */
const DEVELOPERS_PAGE = `${DASHBOARD_PATH}/developers?env=live`;

export interface ActivationPageView {
  locale: Locale;
  signedIn: SignedInFrame;
  organizationName: string;
  activation: ActivationView;
  /** The role may start the verification (organization:activate). */
  mayStart: boolean;
  /** The server has the business verification set up (the platform's organization and the hosted page). */
  available: boolean;
}

/** Where the organization stands, in a sentence. */
function stateOf(locale: Locale, activation: ActivationView): string {
  const { session } = activation;
  if (activation.state === 'activated') {
    const time = activation.activatedAt === null ? '' : formatMoment(locale, activation.activatedAt);
    return text(locale, 'dashboard.onboarding.activation.activated', { time });
  }
  if (session === null) return text(locale, 'dashboard.onboarding.activation.notStarted');
  const reason = session.lastError ?? text(locale, 'dashboard.onboarding.activation.noReason');
  switch (session.status) {
    case 'pending':
      return text(locale, 'dashboard.onboarding.activation.pending');
    case 'requires_input':
      return text(locale, 'dashboard.onboarding.activation.requiresInput', { reason });
    case 'processing':
      return text(locale, 'dashboard.onboarding.activation.processing');
    case 'rejected':
      return text(locale, 'dashboard.onboarding.activation.rejected', { reason });
    default:
      return text(locale, 'dashboard.onboarding.activation.ended', {
        status: text(locale, `verificationStatus.${session.status}`),
      });
  }
}

function StartForm({ view }: { view: ActivationPageView }) {
  const { locale, activation } = view;
  const open = activation.state === 'verifying';
  if (activation.state === 'activated' || activation.session?.status === 'processing') return null;
  if (!view.mayStart) return <p>{say(locale, 'dashboard.onboarding.activation.ownerOnly')}</p>;
  if (!view.available)
    return <Message text={text(locale, 'dashboard.onboarding.activation.unavailable')} kind="alert" />;
  return (
    <form method="post" action={ACTIVATION_PATH} class="stack">
      <CsrfField token={view.signedIn.csrfToken} />
      <p>{say(locale, 'dashboard.onboarding.activation.startHint')}</p>
      <button type="submit" class="primary">
        {say(locale, open ? 'dashboard.onboarding.activation.continue' : 'dashboard.onboarding.activation.start')}
      </button>
    </form>
  );
}

export function activationPage(view: ActivationPageView): string {
  const { locale, signedIn, activation } = view;
  const { session } = activation;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.onboarding.activation.title'),
    path: ACTIVATION_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.onboarding.activation.title')}</h1>
        <p>{say(locale, 'dashboard.onboarding.activation.intro', { organization: view.organizationName })}</p>
        <p>{say(locale, 'dashboard.onboarding.activation.why')}</p>
        <h2>{say(locale, 'dashboard.onboarding.activation.stateHeading')}</h2>
        <p class={activation.state === 'activated' ? 'message status' : undefined}>{stateOf(locale, activation)}</p>
        {activation.state === 'verifying' && session !== null ? (
          <p>
            {say(locale, 'dashboard.onboarding.activation.openUntil', {
              time: formatMoment(locale, session.expiresAt),
            })}
          </p>
        ) : null}
        {activation.state === 'activated' ? (
          <p>
            <a href={DEVELOPERS_PAGE}>{say(locale, 'dashboard.onboarding.activation.developers')}</a>
          </p>
        ) : null}
        <StartForm view={view} />
      </>
    ),
  });
}
