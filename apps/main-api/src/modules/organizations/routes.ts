import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses, SuccessMessage } from '@platform/http';
import { idempotency } from '@platform/idempotency';
import type { VerificationRetentionBounds } from '@platform/organizations';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { alarmRefundsDueAtRetirement } from '../billing/index.js';
import {
  ChangeMemberRoleBodySchema,
  CreateOrganizationBodySchema,
  MemberListSchema,
  MemberParams,
  MemberResponseSchema,
  OrganizationListSchema,
  OrganizationParams,
  OrganizationRemovalSchema,
  OrganizationResponseSchema,
  UpdateOrganizationBodySchema,
  VerificationRetentionBodySchema,
  VerificationRetentionResponseSchema,
} from './schemas.js';
import {
  changeMemberRole,
  createOrganization,
  getOrganization,
  listOrganizationMembers,
  listOrganizations,
  removeMember,
  removeOrganization,
  updateOrganization,
} from './service.js';
import { getVerificationRetention, setVerificationRetention } from './verification-retention.js';

export interface OrganizationRoutesOptions {
  db: Database;
  now: () => Date;
  /** The platform's own organization, the only one whose members may be made reviewers. */
  platformOrganizationId: string | undefined;
  /** Whole KES a new organization's test wallet starts with (docs/decisions.md#test-credit). */
  testWalletCredit: number;
  /** The verification retention default and the bounds an organization's own period keeps. */
  verificationRetention: VerificationRetentionBounds;
}

/**
 * Organizations and their members (docs/decisions.md#organizations-members-and-roles). Creating and listing act for
 * the user alone; the routes under /v1/organizations/:id act for that organization (`organization: 'path'`: 404
 * for one the user is not in) and name the permission they need.
 */
export const organizationRoutes: FastifyPluginAsyncTypebox<OrganizationRoutesOptions> = async (
  app,
  { db, now, platformOrganizationId, testWalletCredit, verificationRetention },
) => {
  const tags = ['organizations'];

  // Only the creation takes an idempotency key, so the plugin is registered around it alone.
  await app.register(async (instance) => {
    const creation = instance.withTypeProvider<TypeBoxTypeProvider>();
    await creation.register(idempotency, {
      db,
      now,
      scopeOf: (request) => `user:${request.user.id}:organizations`,
      onReplay: () => app.metrics.idempotentReplays.inc(),
    });

    creation.post(
      '/v1/organizations',
      {
        // Only writes locally: the organization and the stored answer commit together, so a retry after any
        // failure either replays the first organization or creates the only one.
        config: { idempotency: 'transaction' },
        schema: {
          tags,
          summary: 'Create an organization',
          description:
            'The caller becomes its owner. Its live and test wallets and its live and test webhook endpoints (with ' +
            'their signing secrets, revealed by GET/POST /v1/webhooks/endpoints/...) are created with it, in one ' +
            'transaction. The KRA PIN, address and billing email are optional, and can be set later with PATCH. Needs a profile (POST /v1/accounts): 404 "Profile not found" otherwise. With an ' +
            'Idempotency-Key, a retry answers the first organization instead of creating a second.',
          security: bearerSecurity,
          body: CreateOrganizationBodySchema,
          response: { 201: ref(OrganizationResponseSchema), ...errorResponses(400, 401, 404, 409, 422) },
        },
      },
      async (request) =>
        request.idempotency.transaction(db, async (tx) => {
          const organization = await createOrganization(tx, auditContextOf(request), {
            userId: request.user.id,
            ...request.body,
            testWalletCredit,
          });
          request.log.info({ organizationId: organization.id }, 'Organization created');
          return {
            statusCode: 201,
            body: { success: true as const, message: 'Organization created', data: organization },
          };
        }),
    );
  });

  app.get(
    '/v1/organizations',
    {
      schema: {
        tags,
        summary: "The caller's organizations",
        description:
          "Every organization the caller is a member of, newest first, each with the caller's role. Needs a " +
          'profile: 404 "Profile not found" otherwise.',
        security: bearerSecurity,
        response: { 200: ref(OrganizationListSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await listOrganizations(db, request.user.id) }),
  );

  app.get(
    '/v1/organizations/:id',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: 'An organization',
        description: "The organization with the caller's role. Unknown, or not the caller's: 404.",
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(OrganizationResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getOrganization(db, request.user.id, request.organization.id),
    }),
  );

  app.patch(
    '/v1/organizations/:id',
    {
      config: { organization: 'path', requires: 'owners:write' },
      schema: {
        tags,
        summary: "Change an organization's name, KRA PIN, address or billing email",
        description:
          'At least one of name, kraPin, address and billingEmail; null clears any but the name. Unknown fields are ' +
          'refused. The change is recorded in the audit log.',
        security: bearerSecurity,
        params: OrganizationParams,
        body: UpdateOrganizationBodySchema,
        response: { 200: ref(OrganizationResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Organization updated',
      data: await updateOrganization(db, auditContextOf(request), {
        userId: request.user.id,
        organizationId: request.organization.id,
        ...request.body,
      }),
    }),
  );

  app.get(
    '/v1/organizations/:id/verification-retention',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: "How long the organization's verification records are kept",
        description:
          "Its own period (null: the platform's default), the period that applies and the platform's bounds " +
          '(docs/decisions.md#retention-per-organization).',
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(VerificationRetentionResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getVerificationRetention(db, request.organization.id, verificationRetention),
    }),
  );

  app.put(
    '/v1/organizations/:id/verification-retention',
    {
      config: { organization: 'path', requires: 'records:write' },
      schema: {
        tags,
        summary: "Set how long the organization's verification records are kept",
        description:
          "Days after a session's final status until backend-api erases its documents, submitted details and " +
          "consent evidence; the hosted page's consent notice states it. Within the platform's bounds (400 naming " +
          "them otherwise); null goes back to the platform's default. Recorded in the audit log " +
          '(organization.verification_retention_changed).',
        security: bearerSecurity,
        params: OrganizationParams,
        body: VerificationRetentionBodySchema,
        response: { 200: ref(VerificationRetentionResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Verification retention set',
      data: await setVerificationRetention(db, auditContextOf(request), {
        organizationId: request.organization.id,
        days: request.body.days,
        bounds: verificationRetention,
      }),
    }),
  );

  app.delete(
    '/v1/organizations/:id',
    {
      config: { organization: 'path', requires: 'owners:write' },
      schema: {
        tags,
        summary: 'Delete or retire an organization',
        description:
          'An organization that never moved money (no wallet movement, no credit movement, no payment) is deleted ' +
          'with everything it owns (deleted: true). One with money history is retired instead (deleted: false): ' +
          'its API keys and pending invitations are revoked, its callback default URLs cleared, every membership ' +
          'removed, its subscription canceled and its bank transfer invoices voided; its ledger, payments and audit ' +
          'log stay, and it takes no more money: what a provider still brings in is refunded, never applied ' +
          '(docs/decisions.md#organization-deletion).',
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(OrganizationRemovalSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { billing, ...removal } = await removeOrganization(
        db,
        auditContextOf(request),
        request.organization.id,
        now(),
      );
      request.log.info({ organizationId: removal.id, deleted: removal.deleted }, 'Organization removed');
      if (billing !== null) alarmRefundsDueAtRetirement(app.metrics, request.log, removal.id, billing.refundsDue);
      return {
        success: true as const,
        message: removal.deleted ? 'Organization deleted' : 'Organization retired',
        data: removal,
      };
    },
  );

  app.get(
    '/v1/organizations/:id/members',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's members",
        description:
          'Each member with their profile names, email address, role and when they joined; first joined first.',
        security: bearerSecurity,
        params: OrganizationParams,
        response: { 200: ref(MemberListSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await listOrganizationMembers(db, request.organization.id) }),
  );

  app.patch(
    '/v1/organizations/:id/members/:userId',
    {
      // The least any role change needs; making, demoting or changing an owner also needs owners:write, which
      // depends on the target and is checked by the service (policy.ts, permissionToChangeMember).
      config: { organization: 'path', requires: 'members:write' },
      schema: {
        tags,
        summary: "Change a member's role",
        description:
          'Owners and admins change the role of members who are not owners; making an owner, or changing an ' +
          "owner's role, is for owners only (403 naming the role otherwise). Demoting the last owner is 409. " +
          "Unknown member: 404. The roles reviewer and finance are given only in the platform's own organization (400 elsewhere).",
        security: bearerSecurity,
        params: MemberParams,
        body: ChangeMemberRoleBodySchema,
        response: { 200: ref(MemberResponseSchema), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Member role updated',
      data: await changeMemberRole(db, auditContextOf(request), {
        organizationId: request.organization.id,
        actor: { userId: request.user.id, role: request.organization.role },
        userId: request.params.userId,
        role: request.body.role,
        platformOrganizationId,
      }),
    }),
  );

  app.delete(
    '/v1/organizations/:id/members/:userId',
    {
      // Any member may leave, so the route asks only for membership; removing someone else needs members:write
      // (owners:write for an owner), decided by the service once the target's role is known.
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: 'Remove a member, or leave',
        description:
          "With the caller's own userId: leave the organization (any role). Removing someone else needs the role " +
          'owner or admin (members:write), and owner (owners:write) to remove an owner; 403 naming the role ' +
          'otherwise. The last owner cannot be removed nor leave: 409. Unknown member: 404.',
        security: bearerSecurity,
        params: MemberParams,
        response: { 200: ref(SuccessMessage), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { left } = await removeMember(db, auditContextOf(request), {
        organizationId: request.organization.id,
        actor: { userId: request.user.id, role: request.organization.role },
        userId: request.params.userId,
      });
      return { success: true as const, message: left ? 'You left the organization' : 'Member removed' };
    },
  );
};
