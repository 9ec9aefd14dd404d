/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import { INVITATION_PAGE_PATH, type InvitationForInvitee } from '../../invitations/index.js';
import { formatMoment } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { DASHBOARD_PATH } from './nav.js';

// An invitation as its invitee opens it from the email (docs/decisions.md#dashboard-pages): the organization, the
// role, who invited and until when, with the Accept form while it may be accepted; otherwise why it may not, and no
// form. One sent to another address says so, without its details.

export interface InvitationPageView {
  locale: Locale;
  signedIn: SignedInFrame;
  invitationId: string;
  invitation: InvitationForInvitee;
}

function invitationPath(invitationId: string): string {
  return `${INVITATION_PAGE_PATH}/${encodeURIComponent(invitationId)}`;
}

function Facts({
  locale,
  invitation,
}: {
  locale: Locale;
  invitation: Exclude<InvitationForInvitee, { state: 'other_address' }>;
}) {
  return (
    <dl class="facts">
      <dt>{say(locale, 'dashboard.onboarding.invitation.organization')}</dt>
      <dd>{invitation.organizationName}</dd>
      <dt>{say(locale, 'dashboard.onboarding.invitation.role')}</dt>
      <dd>{say(locale, `dashboard.role.${invitation.role}`)}</dd>
      <dt>{say(locale, 'dashboard.onboarding.invitation.invitedBy')}</dt>
      <dd>{invitation.inviterName ?? text(locale, 'dashboard.onboarding.invitation.formerMember')}</dd>
      <dt>{say(locale, 'dashboard.onboarding.invitation.sentTo')}</dt>
      <dd>{invitation.email}</dd>
      <dt>{say(locale, 'dashboard.onboarding.invitation.expires')}</dt>
      <dd>{formatMoment(locale, invitation.expiresAt)}</dd>
    </dl>
  );
}

/** Why an invitation may not be accepted, or undefined while it may. */
function closedReason(locale: Locale, invitation: InvitationForInvitee): string | undefined {
  switch (invitation.state) {
    case 'pending':
      return undefined;
    case 'other_address':
      return text(locale, 'dashboard.onboarding.invitation.otherAddress');
    case 'member':
      return text(locale, 'dashboard.onboarding.invitation.member', { organization: invitation.organizationName });
    case 'expired':
      return text(locale, 'dashboard.onboarding.invitation.expired', {
        time: formatMoment(locale, invitation.expiresAt),
      });
    default:
      return text(locale, `dashboard.onboarding.invitation.${invitation.state}`);
  }
}

export function invitationPage(view: InvitationPageView): string {
  const { locale, signedIn, invitation } = view;
  const reason = closedReason(locale, invitation);
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.onboarding.invitation.title'),
    path: invitationPath(view.invitationId),
    signedIn,
    body:
      invitation.state === 'other_address' ? (
        <>
          <h1>{say(locale, 'dashboard.onboarding.invitation.title')}</h1>
          <Message text={reason} kind="alert" />
          <p>
            <a href={DASHBOARD_PATH}>{say(locale, 'dashboard.onboarding.invitation.home')}</a>
          </p>
        </>
      ) : (
        <>
          <h1>
            {say(locale, 'dashboard.onboarding.invitation.heading', { organization: invitation.organizationName })}
          </h1>
          <p>
            {say(locale, 'dashboard.onboarding.invitation.intro', {
              inviter: invitation.inviterName ?? text(locale, 'dashboard.onboarding.invitation.formerMember'),
              organization: <strong>{invitation.organizationName}</strong>,
            })}
          </p>
          <Facts locale={locale} invitation={invitation} />
          {reason === undefined ? (
            <form method="post" action={`${invitationPath(view.invitationId)}/accept`} class="stack">
              <CsrfField token={signedIn.csrfToken} />
              <p>
                {say(locale, 'dashboard.onboarding.invitation.acceptHint', {
                  organization: invitation.organizationName,
                  role: text(locale, `dashboard.role.${invitation.role}`),
                })}
              </p>
              <button type="submit" class="primary">
                {say(locale, 'dashboard.onboarding.invitation.accept')}
              </button>
            </form>
          ) : (
            <>
              <Message text={reason} kind="alert" />
              <p>
                <a href={DASHBOARD_PATH}>{say(locale, 'dashboard.onboarding.invitation.home')}</a>
              </p>
            </>
          )}
        </>
      ),
  });
}
