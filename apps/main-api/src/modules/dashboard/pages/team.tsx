/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { MembershipRole } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { InvitationView } from '../../invitations/index.js';
import { allows, type MemberView, permissionToChangeMember } from '../../organizations/index.js';
import type { DashboardOrganization } from '../context.js';
import { formatMoment } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { TEAM_PATH } from './nav.js';

// The Team page (docs/decisions.md#dashboard-pages): the members with their roles, the invitations waiting for an
// answer, and the forms the role may use; a control the role may not use is not shown. The last owner is told why
// they cannot leave or give up the role, instead of a form that would fail.

export interface TeamView {
  locale: Locale;
  signedIn: SignedInFrame;
  organization: DashboardOrganization;
  userId: string;
  members: readonly MemberView[];
  /** The invitations not yet accepted nor revoked (expired ones included: they can be sent again). */
  invitations: readonly InvitationView[];
  /** The roles this organization gives (the platform's own roles only in the platform's organization). */
  roles: readonly MembershipRole[];
  notice?: string | undefined;
  problem?: string | undefined;
  /** The invitation form's values, kept when it was refused. */
  invite?: { email: string; role: string } | undefined;
}

/** Where each form of the page posts: the organization in the query, so a form acts for the one it was shown for. */
function teamFormPath(organizationId: string, path: string): string {
  return `${TEAM_PATH}${path}?org=${encodeURIComponent(organizationId)}`;
}

const nameOf = (member: MemberView) =>
  [member.firstName, member.lastName].filter((part) => part !== null && part !== '').join(' ') || member.email;

function RoleSelect(props: {
  locale: Locale;
  id: string;
  label: string;
  roles: readonly MembershipRole[];
  selected: string | undefined;
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name="role">
        {props.roles.map((role) => (
          <option value={role} selected={role === props.selected}>
            {say(props.locale, `dashboard.role.${role}`)}
          </option>
        ))}
      </select>
    </>
  );
}

function MemberCard({ view, member, index }: { view: TeamView; member: MemberView; index: number }) {
  const { locale, organization, signedIn } = view;
  const self = member.userId === view.userId;
  const owners = view.members.filter((each) => each.role === 'owner').length;
  const lastOwner = member.role === 'owner' && owners <= 1;
  const mayChange = allows(organization.role, permissionToChangeMember(member.role));
  // Making an owner needs owners:write: a role without it is not offered the choice.
  const offered = view.roles.filter((role) => role !== 'owner' || allows(organization.role, 'owners:write'));
  const memberPath = `/members/${encodeURIComponent(member.userId)}`;
  return (
    <li class="card">
      <h3>
        {nameOf(member)} {self ? say(locale, 'dashboard.team.you') : null}
      </h3>
      <p class="address">{member.email}</p>
      <dl class="facts">
        <dt>{say(locale, 'dashboard.team.role')}</dt>
        <dd>{say(locale, `dashboard.role.${member.role}`)}</dd>
        <dt>{say(locale, 'dashboard.team.joined')}</dt>
        <dd>{formatMoment(locale, member.joinedAt)}</dd>
      </dl>
      {!mayChange ? null : lastOwner ? (
        <p class="hint">{say(locale, 'dashboard.team.onlyOwner')}</p>
      ) : (
        <div class="controls">
          <form method="post" action={teamFormPath(organization.id, `${memberPath}/role`)} class="row">
            <CsrfField token={signedIn.csrfToken} />
            <RoleSelect
              locale={locale}
              id={`role-${index}`}
              label={text(locale, 'dashboard.team.roleFor', { member: nameOf(member) })}
              roles={offered}
              selected={member.role}
            />
            <button type="submit">{say(locale, 'dashboard.team.changeRole')}</button>
          </form>
          {self ? null : (
            <form method="post" action={teamFormPath(organization.id, `${memberPath}/remove`)} class="row">
              <CsrfField token={signedIn.csrfToken} />
              <button type="submit">{say(locale, 'dashboard.team.remove')}</button>
            </form>
          )}
        </div>
      )}
    </li>
  );
}

function InvitationCard({ view, invitation }: { view: TeamView; invitation: InvitationView }) {
  const { locale, organization, signedIn } = view;
  const mayManage =
    allows(organization.role, 'members:write') &&
    (invitation.role !== 'owner' || allows(organization.role, 'owners:write'));
  const invitationPath = `/invitations/${encodeURIComponent(invitation.id)}`;
  return (
    <li class="card">
      <h3>{invitation.email}</h3>
      <dl class="facts">
        <dt>{say(locale, 'dashboard.team.role')}</dt>
        <dd>{say(locale, `dashboard.role.${invitation.role}`)}</dd>
        <dt>{say(locale, 'dashboard.team.sent')}</dt>
        <dd>{formatMoment(locale, invitation.createdAt)}</dd>
        <dt>{say(locale, 'dashboard.team.expires')}</dt>
        <dd>
          {invitation.status === 'expired'
            ? say(locale, 'dashboard.team.expired', { at: formatMoment(locale, invitation.expiresAt) })
            : formatMoment(locale, invitation.expiresAt)}
        </dd>
      </dl>
      {mayManage ? (
        <div class="controls">
          <form method="post" action={teamFormPath(organization.id, `${invitationPath}/resend`)} class="row">
            <CsrfField token={signedIn.csrfToken} />
            <button type="submit">{say(locale, 'dashboard.team.resend')}</button>
          </form>
          <form method="post" action={teamFormPath(organization.id, `${invitationPath}/revoke`)} class="row">
            <CsrfField token={signedIn.csrfToken} />
            <button type="submit">{say(locale, 'dashboard.team.revoke')}</button>
          </form>
        </div>
      ) : null}
    </li>
  );
}

function InviteForm({ view }: { view: TeamView }) {
  const { locale, organization, signedIn } = view;
  const offered = view.roles.filter((role) => role !== 'owner' || allows(organization.role, 'owners:write'));
  return (
    <>
      <h2 id="invite">{say(locale, 'dashboard.team.invite')}</h2>
      <p>{say(locale, 'dashboard.team.inviteHint')}</p>
      <form
        method="post"
        action={teamFormPath(organization.id, '/invitations')}
        class="filters"
        aria-labelledby="invite"
      >
        <CsrfField token={signedIn.csrfToken} />
        <div>
          <label for="invite-email">{say(locale, 'dashboard.team.email')}</label>
          <input
            id="invite-email"
            type="email"
            name="email"
            maxlength={320}
            autocomplete="off"
            required
            value={view.invite?.email ?? ''}
          />
        </div>
        <div>
          <RoleSelect
            locale={locale}
            id="invite-role"
            label={text(locale, 'dashboard.team.role')}
            roles={offered}
            selected={view.invite?.role ?? 'member'}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            {say(locale, 'dashboard.team.inviteSubmit')}
          </button>
        </div>
      </form>
    </>
  );
}

function Leave({ view }: { view: TeamView }) {
  const { locale, organization, signedIn } = view;
  const owners = view.members.filter((member) => member.role === 'owner').length;
  const names = { organization: organization.name };
  return (
    <>
      <h2>{say(locale, 'dashboard.team.leave')}</h2>
      {organization.role === 'owner' && owners <= 1 ? (
        <p>{say(locale, 'dashboard.team.lastOwner', names)}</p>
      ) : (
        <form
          method="post"
          action={teamFormPath(organization.id, `/members/${encodeURIComponent(view.userId)}/remove`)}
        >
          <CsrfField token={signedIn.csrfToken} />
          <p>{say(locale, 'dashboard.team.leaveHint', names)}</p>
          <button type="submit">{say(locale, 'dashboard.team.leaveSubmit', names)}</button>
        </form>
      )}
    </>
  );
}

export function teamPage(view: TeamView): string {
  const { locale, signedIn, organization } = view;
  const mayManage = allows(organization.role, 'members:write');
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.team.title'),
    path: TEAM_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.team.title')}</h1>
        <p>{say(locale, 'dashboard.team.intro', { organization: organization.name })}</p>
        {mayManage ? null : <p>{say(locale, 'dashboard.team.readOnly')}</p>}
        <Message text={view.notice} />
        <Message text={view.problem} kind="alert" />
        <h2>{say(locale, 'dashboard.team.members')}</h2>
        <ul class="cards" aria-label={text(locale, 'dashboard.team.membersCaption')}>
          {view.members.map((member, index) => (
            <MemberCard view={view} member={member} index={index} />
          ))}
        </ul>
        {mayManage ? <InviteForm view={view} /> : null}
        <h2>{say(locale, 'dashboard.team.invitations')}</h2>
        {view.invitations.length === 0 ? (
          <p>{say(locale, 'dashboard.team.noInvitations')}</p>
        ) : (
          <ul class="cards" aria-label={text(locale, 'dashboard.team.invitationsCaption')}>
            {view.invitations.map((invitation) => (
              <InvitationCard view={view} invitation={invitation} />
            ))}
          </ul>
        )}
        <Leave view={view} />
      </>
    ),
  });
}
