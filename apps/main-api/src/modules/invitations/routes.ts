import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { idempotency } from '@platform/idempotency';
import { Type } from '@sinclair/typebox';
import type { MailMessage, MailSender } from '../../mail/mail-sender.js';
import { auditContextOf } from '../../shared/audit-context.js';
import { redirectTo } from '../../shared/html-forms.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  AcceptedInvitationSchema,
  CreatedInvitationSchema,
  CreateInvitationBodySchema,
  InvitationListSchema,
  InvitationParams,
  OrganizationInvitationParams,
  OrganizationParams,
  ResentInvitationSchema,
  RevokedInvitationSchema,
} from './schemas.js';
import {
  acceptInvitation,
  createInvitation,
  INVITATION_PAGE_PATH,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  sendInvitationEmail,
} from './service.js';

export interface InvitationRoutesOptions {
  db: Database;
  now: () => Date;
  /** Base URL of main-api: accept URLs start with it. */
  publicUrl: string;
  mail: MailSender;
  /** The platform's own organization, the only one that invites reviewers. */
  platformOrganizationId: string | undefined;
}

const INVITATION_CREATED = 'Invitation created';
const INVITATION_REVOKED = 'Invitation revoked';
const INVITATION_RESENT = 'Invitation sent again';
const INVITATION_ACCEPTED = 'Invitation accepted: you are a member of the organization';

/**
 * An organization's invitations (under /v1/organizations/:id, docs/decisions.md#invitations) and their acceptance
 * by the invitee (POST /v1/invitations/:invitationId/accept, a route of the user, not of an organization).
 */
export const invitationRoutes: FastifyPluginAsyncTypebox<InvitationRoutesOptions> = async (
  app,
  { db, now, publicUrl, mail, platformOrganizationId },
) => {
  const tags = ['invitations'];
  const log = app.log.child({ module: 'invitations' });
  app.addHook('onClose', () => mail.close());

  // A retry with the key answers the first answer; keys belong to the user (and the organization it acts for).
  await app.register(idempotency, {
    db,
    now,
    scopeOf: (request) =>
      request.routeOptions.config.organization === undefined
        ? `user:${request.user.id}`
        : `user:${request.user.id}:organization:${request.organization.id}`,
  });

  app.post(
    '/v1/organizations/:id/invitations',
    {
      // The invitation and the stored answer commit together; the email is sent after.
      config: { organization: 'path', requires: 'members:write', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Invite someone to the organization',
        description:
          "Creates a pending invitation, valid 7 days, and emails the address a link to the invitation's dashboard " +
          'page (where the invitee signs in and accepts) when the platform sends email (SMTP_URL); otherwise share ' +
          'acceptUrl yourself (opened in a browser it sends to that page). An invitee who already has a profile also ' +
          'gets an in-app notification. Inviting an owner needs the owner role (403 otherwise); a reviewer or finance member is invited ' +
          "only by the platform's own organization (400 elsewhere). 409 when the " +
          'address has a pending invitation of this organization or belongs to a member (addresses are compared ' +
          'without regard to case). A pending invitation whose time ran out is replaced. A retry with the same ' +
          'Idempotency-Key answers the first invitation.',
        security: bearerSecurity,
        params: OrganizationParams,
        body: CreateInvitationBodySchema,
        response: { 201: ref(CreatedInvitationSchema), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      let email: MailMessage | undefined;
      const body = await request.idempotency.transaction(db, async (tx) => {
        const created = await createInvitation(tx, {
          organizationId: request.organization.id,
          inviter: { userId: request.user.id, role: request.organization.role },
          email: request.body.email,
          role: request.body.role,
          now: now(),
          publicUrl,
          audit: auditContextOf(request),
          platformOrganizationId,
        });
        email = created.email;
        return {
          statusCode: 201,
          body: { success: true as const, message: INVITATION_CREATED, data: created.invitation },
        };
      });
      request.log.info(
        { invitationId: body.data.id, organizationId: request.organization.id, role: body.data.role },
        'Invitation created',
      );
      if (email !== undefined) await sendInvitationEmail(mail, log, body.data.id, email);
      return reply.code(201).send(body);
    },
  );

  app.get(
    '/v1/organizations/:id/invitations',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: "List the organization's invitations",
        description:
          'Newest first, pending and closed. A pending invitation whose 7 days have passed shows status expired.',
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(InvitationListSchema), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listInvitations(db, request.organization.id, now(), publicUrl),
    }),
  );

  app.delete(
    '/v1/organizations/:id/invitations/:invitationId',
    {
      config: { organization: 'path', requires: 'members:write', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Revoke an invitation',
        description:
          'It can no longer be accepted. Revoking a revoked invitation succeeds and keeps its first closedAt; an ' +
          "accepted one is 409 (remove the member instead). An unknown id and another organization's invitation " +
          'give the same 404.',
        security: bearerSecurity,
        params: OrganizationInvitationParams,
        response: { 200: ref(RevokedInvitationSchema), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      request.idempotency.transaction(db, async (tx) => {
        const invitation = await revokeInvitation(tx, {
          organizationId: request.organization.id,
          invitationId: request.params.invitationId,
          now: now(),
          publicUrl,
          audit: auditContextOf(request),
        });
        return { statusCode: 200, body: { success: true as const, message: INVITATION_REVOKED, data: invitation } };
      }),
  );

  app.post(
    '/v1/organizations/:id/invitations/:invitationId/resend',
    {
      // The renewal and the stored answer commit together; the email is sent after, as for a new invitation.
      config: { organization: 'path', requires: 'members:write', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Send an invitation again',
        description:
          'Emails the pending invitation again (when the platform sends email: SMTP_URL), with the same acceptUrl, ' +
          'and gives it 7 days from now; one that expired is pending again. Resending an invitation to be owner ' +
          'needs the owner role (403 otherwise). An accepted or revoked invitation is 409 (invite the address ' +
          "again). An unknown id and another organization's invitation give the same 404. A retry with the same " +
          'Idempotency-Key answers the first resend.',
        security: bearerSecurity,
        params: OrganizationInvitationParams,
        response: { 200: ref(ResentInvitationSchema), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      let email: MailMessage | undefined;
      const body = await request.idempotency.transaction(db, async (tx) => {
        const resent = await resendInvitation(tx, {
          organizationId: request.organization.id,
          invitationId: request.params.invitationId,
          sender: { userId: request.user.id, role: request.organization.role },
          now: now(),
          publicUrl,
          audit: auditContextOf(request),
        });
        email = resent.email;
        return {
          statusCode: 200,
          body: { success: true as const, message: INVITATION_RESENT, data: resent.invitation },
        };
      });
      if (email !== undefined) await sendInvitationEmail(mail, log, body.data.id, email);
      return body;
    },
  );

  app.post(
    '/v1/invitations/:invitationId/accept',
    {
      // The path names an invitation: log lines name the route pattern, never the id.
      config: { idempotency: 'transaction', urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Accept an invitation',
        description:
          "The caller's token must carry the invitation's address (compared without regard to case) and the " +
          'caller must have a profile (POST /v1/accounts). Creates the membership in the invited role and ' +
          'closes the invitation. Otherwise, and for an unknown, revoked, accepted or expired invitation or one ' +
          'of a retired organization, the answer is the same 404, so ids cannot be probed; of two accepts at once ' +
          'the second gets it too. 409 when the caller is a member already. A retry with the same ' +
          'Idempotency-Key answers the first acceptance.',
        security: bearerSecurity,
        params: InvitationParams,
        response: { 200: ref(AcceptedInvitationSchema), ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) =>
      request.idempotency.transaction(db, async (tx) => {
        const membership = await acceptInvitation(tx, {
          invitationId: request.params.invitationId,
          userId: request.user.id,
          tokenEmail: request.user.email,
          now: now(),
          audit: auditContextOf(request),
        });
        return { statusCode: 200, body: { success: true as const, message: INVITATION_ACCEPTED, data: membership } };
      }),
  );

  app.get(
    '/v1/invitations/:invitationId/accept',
    {
      // A browser opening an acceptUrl (an email sent before the dashboard had the invitation's page) has no token.
      config: { public: true, urlCarriesSecret: true },
      schema: {
        tags,
        summary: "Open an invitation's page",
        description:
          "Sends a browser to the invitation's dashboard page (303), where the invitee signs in and accepts with a " +
          'button; the email links to that page. Accepting stays a POST.',
        params: InvitationParams,
        response: { 303: Type.Null({ description: "The invitation's page is at the Location header." }) },
      },
    },
    async (request, reply) =>
      redirectTo(reply, `${INVITATION_PAGE_PATH}/${encodeURIComponent(request.params.invitationId)}`),
  );
};
