import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Database, type MembershipRole, membershipRoles } from '@platform/db';
import { isAppError } from '@platform/errors';
import { type BilingualKey, text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MailSender } from '../../mail/mail-sender.js';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import type { AuditContext } from '../audit/index.js';
import {
  ALREADY_A_MEMBER,
  createInvitation,
  listInvitations,
  PENDING_INVITATION_EXISTS,
  resendInvitation,
  revokeInvitation,
  sendInvitationEmail,
} from '../invitations/index.js';
import { changeMemberRole, LAST_OWNER, listOrganizationMembers, removeMember } from '../organizations/index.js';
import type { DashboardOrganization } from './context.js';
import { frameOf } from './pages/layout.js';
import { DASHBOARD_PATH, TEAM_PATH } from './pages/nav.js';
import { type TeamView, teamPage } from './pages/team.js';
import { documented, PageQuery } from './schemas.js';

// The Team page and its forms (docs/decisions.md#dashboard-pages), over the services of the API's member and
// invitation routes: the same permissions (members:write; owners:write where an owner is made, unmade or invited,
// decided by the services), the same last-owner rule, the same mail path. A refused form answers the page again
// with why, its values kept; a member or an invitation of another organization is the 404 page.

export interface DashboardTeamRoutesOptions {
  db: Database;
  now: () => Date;
  publicUrl: string;
  mail: MailSender;
  platformOrganizationId: string | undefined;
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const TeamQuery = Type.Object(
  {
    notice: Type.Optional(Type.String({ maxLength: 32 })),
    lang: Type.Optional(Type.String({ maxLength: 8 })),
    org: Type.Optional(Type.String({ maxLength: 64 })),
    env: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);
const MemberParams = Type.Object({ userId: Type.String({ maxLength: 255 }) });
const InvitationParams = Type.Object({ invitationId: Type.String({ maxLength: 64 }) });

const notices = ['invited', 'resent', 'revoked', 'roleChanged', 'removed'] as const;

/** The services' refusals the page says in its own language; any other is said as the API says it. */
const problems: ReadonlyMap<string, BilingualKey> = new Map([
  [LAST_OWNER, 'dashboard.team.problem.lastOwner'],
  [PENDING_INVITATION_EXISTS, 'dashboard.team.problem.pendingExists'],
  [ALREADY_A_MEMBER, 'dashboard.team.problem.alreadyMember'],
]);

/** A form field as one string (a repeated field is not one). */
const fieldOf = (body: Record<string, string | string[]>, name: string) => {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
};

export const dashboardTeamRoutes: FastifyPluginAsyncTypebox<DashboardTeamRoutesOptions> = async (
  app,
  { db, now, publicUrl, mail, platformOrganizationId, guard },
) => {
  const read = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
  // The least each change needs, as on the API's routes; the services ask owners:write once they know the target.
  const manage = { public: true, idempotency: 'none', dashboardPage: { requires: 'members:write' } } as const;
  // Any member may leave (removing oneself), so removal asks only for membership, as DELETE .../members/:userId.
  const remove = { public: true, idempotency: 'none', dashboardPage: { requires: 'organization:read' } } as const;
  const form = [app.csrfProtection, guard];
  const log = app.log.child({ module: 'invitations' });

  const organizationOf = (request: FastifyRequest) => request.dashboard.organization as DashboardOrganization;
  const auditOf = (request: FastifyRequest): AuditContext => ({
    actorUserId: request.dashboard.userId,
    requestId: request.id,
    ip: request.ip,
  });
  const actorOf = (request: FastifyRequest) => ({
    userId: request.dashboard.userId,
    role: organizationOf(request).role,
  });
  // The platform's own roles are given only in the platform's organization (assertRoleGivenIn): not offered elsewhere.
  const rolesOf = (organizationId: string): readonly MembershipRole[] =>
    membershipRoles.filter(
      (role) => organizationId === platformOrganizationId || (role !== 'reviewer' && role !== 'finance'),
    );

  async function answer(request: FastifyRequest, reply: FastifyReply, extra: Partial<TeamView> = {}, status = 200) {
    const context = request.dashboard;
    const organization = organizationOf(request);
    const [members, invitations] = await Promise.all([
      listOrganizationMembers(db, organization.id),
      listInvitations(db, organization.id, now(), publicUrl),
    ]);
    const view: TeamView = {
      locale: context.locale,
      signedIn: frameOf(context),
      organization,
      userId: context.userId,
      members,
      invitations: invitations.filter(({ status }) => status === 'pending' || status === 'expired'),
      roles: rolesOf(organization.id),
      ...extra,
    };
    return sendPage(reply, teamPage(view), status);
  }

  /** A refusal the page can explain (bad input, the last owner): the page again with why; others are error pages. */
  async function refused(request: FastifyRequest, reply: FastifyReply, error: unknown, extra: Partial<TeamView> = {}) {
    if (!isAppError(error) || (error.statusCode !== 400 && error.statusCode !== 409)) throw error;
    const { locale } = request.dashboard;
    const key = error.details?.some(({ path }) => path === '/email')
      ? 'dashboard.team.problem.email'
      : problems.get(error.message);
    const problem = key === undefined ? error.message : text(locale, key);
    return answer(request, reply, { ...extra, problem }, error.statusCode);
  }

  const roleIn = (request: FastifyRequest, value: string | undefined) =>
    rolesOf(organizationOf(request).id).find((role) => role === value);

  app.get(
    TEAM_PATH,
    {
      config: read,
      preHandler: guard,
      schema: { ...documented('Team: the members, their roles and the invitations (HTML)'), querystring: TeamQuery },
    },
    async (request, reply) => {
      const notice = notices.find((each) => each === request.query.notice);
      const key = notice === undefined ? undefined : (`dashboard.team.notice.${notice}` as BilingualKey);
      return answer(request, reply, { notice: key === undefined ? undefined : text(request.dashboard.locale, key) });
    },
  );

  app.post(
    `${TEAM_PATH}/invitations`,
    {
      config: manage,
      preHandler: form,
      schema: { ...documented('Invites someone to the organization (form)'), querystring: PageQuery, body: FormBody },
    },
    async (request, reply) => {
      const email = fieldOf(request.body, 'email') ?? '';
      const given = fieldOf(request.body, 'role') ?? '';
      const invite = { email, role: given };
      const role = roleIn(request, given);
      if (role === undefined) {
        const problem = text(request.dashboard.locale, 'dashboard.team.chooseRole');
        return answer(request, reply, { invite, problem }, 400);
      }
      let created: Awaited<ReturnType<typeof createInvitation>>;
      try {
        created = await db.transaction((tx) =>
          createInvitation(tx, {
            organizationId: organizationOf(request).id,
            inviter: actorOf(request),
            email,
            role,
            now: now(),
            publicUrl,
            audit: auditOf(request),
            platformOrganizationId,
          }),
        );
      } catch (error) {
        return refused(request, reply, error, { invite });
      }
      request.log.info({ invitationId: created.invitation.id, role }, 'Invitation created from the dashboard');
      await sendInvitationEmail(mail, log, created.invitation.id, created.email);
      return redirectTo(reply, `${TEAM_PATH}?notice=invited`);
    },
  );

  app.post(
    `${TEAM_PATH}/invitations/:invitationId/resend`,
    {
      config: manage,
      preHandler: form,
      schema: {
        ...documented('Sends an invitation again, valid 7 days from now (form)'),
        params: InvitationParams,
        querystring: PageQuery,
        body: FormBody,
      },
    },
    async (request, reply) => {
      let resent: Awaited<ReturnType<typeof resendInvitation>>;
      try {
        resent = await db.transaction((tx) =>
          resendInvitation(tx, {
            organizationId: organizationOf(request).id,
            invitationId: request.params.invitationId,
            sender: actorOf(request),
            now: now(),
            publicUrl,
            audit: auditOf(request),
          }),
        );
      } catch (error) {
        return refused(request, reply, error);
      }
      await sendInvitationEmail(mail, log, resent.invitation.id, resent.email);
      return redirectTo(reply, `${TEAM_PATH}?notice=resent`);
    },
  );

  app.post(
    `${TEAM_PATH}/invitations/:invitationId/revoke`,
    {
      config: manage,
      preHandler: form,
      schema: {
        ...documented('Revokes an invitation (form)'),
        params: InvitationParams,
        querystring: PageQuery,
        body: FormBody,
      },
    },
    async (request, reply) => {
      try {
        await db.transaction((tx) =>
          revokeInvitation(tx, {
            organizationId: organizationOf(request).id,
            invitationId: request.params.invitationId,
            now: now(),
            publicUrl,
            audit: auditOf(request),
          }),
        );
      } catch (error) {
        return refused(request, reply, error);
      }
      return redirectTo(reply, `${TEAM_PATH}?notice=revoked`);
    },
  );

  app.post(
    `${TEAM_PATH}/members/:userId/role`,
    {
      config: manage,
      preHandler: form,
      schema: {
        ...documented("Changes a member's role (form)"),
        params: MemberParams,
        querystring: PageQuery,
        body: FormBody,
      },
    },
    async (request, reply) => {
      const role = roleIn(request, fieldOf(request.body, 'role'));
      if (role === undefined) {
        return answer(request, reply, { problem: text(request.dashboard.locale, 'dashboard.team.chooseRole') }, 400);
      }
      try {
        await changeMemberRole(db, auditOf(request), {
          organizationId: organizationOf(request).id,
          actor: actorOf(request),
          userId: request.params.userId,
          role,
          platformOrganizationId,
        });
      } catch (error) {
        return refused(request, reply, error);
      }
      return redirectTo(reply, `${TEAM_PATH}?notice=roleChanged`);
    },
  );

  app.post(
    `${TEAM_PATH}/members/:userId/remove`,
    {
      config: remove,
      preHandler: form,
      schema: {
        ...documented('Removes a member, or leaves the organization with your own id (form)'),
        params: MemberParams,
        querystring: PageQuery,
        body: FormBody,
      },
    },
    async (request, reply) => {
      let left: boolean;
      try {
        ({ left } = await removeMember(db, auditOf(request), {
          organizationId: organizationOf(request).id,
          actor: actorOf(request),
          userId: request.params.userId,
        }));
      } catch (error) {
        return refused(request, reply, error);
      }
      // Gone from the organization: Home, which lists those the user still belongs to.
      return redirectTo(reply, left ? DASHBOARD_PATH : `${TEAM_PATH}?notice=removed`);
    },
  );
};
