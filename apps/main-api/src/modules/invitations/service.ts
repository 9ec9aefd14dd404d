import { type Database, type DatabaseExecutor, isUuid, type MembershipRole } from '@platform/db';
import { conflict, forbidden, invalidFields, notFound } from '@platform/errors';
import { notifyUser } from '@platform/notifications';
import { text } from '@platform/templates';
import type { MailMessage, MailSender } from '../../mail/mail-sender.js';
import { findUserIdByAddress, findUserProfile } from '../accounts/index.js';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import {
  allows,
  assertRoleGivenIn,
  closeExpiredPendingInvitation,
  closeInvitation,
  findActiveOrganizationName,
  findInvitationAddressedTo,
  findOrganizationInvitations,
  findPendingInvitationsTo,
  insertInvitation,
  insertMembershipIfAbsent,
  isMemberAddress,
  lockInvitationFor,
  lockOrganizationInvitation,
  membershipIn,
  refusalMessage,
  renewInvitation,
} from '../organizations/index.js';
import { formatExpiry, invitationEmail } from './email.js';
import { invitationAddress } from './email-address.js';
import type { AcceptedMembershipView, InvitationView } from './schemas.js';

// Invitations to join an organization (docs/decisions.md#invitations).

/** How long an invitation can be accepted. */
const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

export const INVITATION_NOT_FOUND = 'Invitation not found';
export const PENDING_INVITATION_EXISTS = 'A pending invitation for this address exists';
export const ALREADY_A_MEMBER = 'This address belongs to a member of the organization already';
const ALREADY_ACCEPTED = 'This invitation was accepted: remove the member instead';
const YOU_ARE_A_MEMBER = 'You are a member of this organization already';
const REVOKED_CANNOT_BE_RESENT = 'This invitation was revoked: invite the address again';

/** The URL an invitation is accepted at: `{PUBLIC_URL}/v1/invitations/<id>/accept`. */
function acceptUrlOf(publicUrl: string, invitationId: string): string {
  return `${publicUrl}/v1/invitations/${invitationId}/accept`;
}

/** Where the dashboard shows an invitation to its invitee, with the Accept form; the email links to it. */
export const INVITATION_PAGE_PATH = '/dashboard/invitations';

/** The page the email and the notification link to: `{PUBLIC_URL}/dashboard/invitations/<id>`. */
function invitationPageUrlOf(publicUrl: string, invitationId: string): string {
  return `${publicUrl}${INVITATION_PAGE_PATH}/${invitationId}`;
}

type OrganizationInvitation = Awaited<ReturnType<typeof findOrganizationInvitations>>[number];

/** An invitation as the API shows it; a pending one whose time ran out shows `expired`. */
function viewOf(invitation: OrganizationInvitation, now: Date, publicUrl: string): InvitationView {
  const expired = invitation.status === 'pending' && invitation.expiresAt.getTime() <= now.getTime();
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: expired ? 'expired' : invitation.status,
    invitedBy: invitation.invitedBy,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
    closedAt: invitation.closedAt?.toISOString() ?? null,
    acceptUrl: acceptUrlOf(publicUrl, invitation.id),
  };
}

export interface NewInvitation {
  organizationId: string;
  /** The member who invites, and their role (inviting an owner needs owners:write). */
  inviter: { userId: string; role: MembershipRole };
  /** As sent: trimmed and checked here. */
  email: string;
  role: MembershipRole;
  now: Date;
  publicUrl: string;
  audit: AuditContext;
  /** The platform's own organization: the only one that invites reviewers (docs/decisions.md#manual-review). */
  platformOrganizationId: string | undefined;
}

/**
 * Creates a pending invitation, valid 7 days, in the caller's transaction: with its audit record and, for an
 * invitee who has a profile, an in-app notification. Returns it with the email to send once the transaction has
 * committed (`sendInvitationEmail`). 403 for an owner invited by a role without owners:write, 400 for an unusable
 * address or a reviewer invited outside the platform's own organization, 409 for a member's address or an address with a pending invitation (the one-pending index decides
 * between concurrent requests). A pending invitation of the address whose time ran out is closed (revoked) first.
 */
export async function createInvitation(
  tx: DatabaseExecutor,
  input: NewInvitation,
): Promise<{ invitation: InvitationView; email: MailMessage }> {
  if (input.role === 'owner' && !allows(input.inviter.role, 'owners:write')) {
    throw forbidden(refusalMessage('owners:write'));
  }
  assertRoleGivenIn(input.role, input.organizationId, input.platformOrganizationId);
  const email = invitationAddress(input.email);
  if (typeof email !== 'string') {
    throw invalidFields([{ path: '/email', message: email.problem }]);
  }
  const { organizationId, now } = input;
  // The organization guard found the inviter a member, so it exists and is not retired.
  const organizationName = (await findActiveOrganizationName(tx, organizationId)) ?? 'an organization';
  if (await isMemberAddress(tx, organizationId, email)) throw conflict(ALREADY_A_MEMBER);

  const expired = await closeExpiredPendingInvitation(tx, organizationId, email, now);
  if (expired !== undefined) {
    await recordAuditEvent(tx, input.audit, {
      organizationId,
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: expired,
      details: { reason: 'expired, replaced by a new invitation' },
    });
  }
  const inserted = await insertInvitation(tx, {
    organizationId,
    email,
    role: input.role,
    invitedBy: input.inviter.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS),
  });
  if (inserted === 'pending-exists') throw conflict(PENDING_INVITATION_EXISTS);
  const invitation = viewOf(inserted, now, input.publicUrl);

  await recordAuditEvent(tx, input.audit, {
    organizationId,
    action: 'invitation.created',
    targetType: 'invitation',
    targetId: invitation.id,
    details: { email, role: input.role },
  });

  const inviter = await findUserProfile(tx, input.inviter.userId);
  const inviterName = nameOf(inviter);
  const inviteeId = await findUserIdByAddress(tx, email);
  if (inviteeId !== undefined) {
    await notifyUser(tx, {
      userId: inviteeId,
      organizationId,
      type: 'info',
      title: text('en', 'invitation.notification.title', { organization: organizationName }),
      message: text('en', 'invitation.notification.message', {
        inviter: inviterName,
        organization: organizationName,
        role: input.role,
        time: formatExpiry(inserted.expiresAt),
      }),
      // The dashboard's page of the invitation, where the invitee accepts it (docs/decisions.md#dashboard-pages).
      actionUrl: `${INVITATION_PAGE_PATH}/${invitation.id}`,
    });
  }
  const pageUrl = invitationPageUrlOf(input.publicUrl, invitation.id);
  return {
    invitation,
    email: invitationEmail({ to: email, inviterName, organizationName, role: input.role, invitation, pageUrl }),
  };
}

function nameOf(user: { email: string; firstName: string | null; lastName: string | null } | undefined): string {
  if (user === undefined) return 'A member';
  const name = [user.firstName, user.lastName].filter((part) => part !== null && part !== '').join(' ');
  return name === '' ? user.email : `${name} (${user.email})`;
}

/** Where a failed send is reported: a pino-style logger. */
export interface MailLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Sends the invitation email, after the transaction that created the invitation has committed. A failure never
 * fails the request (the invitation stands and its acceptUrl can be shared by hand): it is logged, with the
 * invitation id and the error's code only, never the address or the accept URL (a server's error text may quote
 * the address).
 */
export async function sendInvitationEmail(
  mail: MailSender,
  log: MailLog,
  invitationId: string,
  email: MailMessage,
): Promise<void> {
  if (mail.kind === 'none') return;
  try {
    await mail.send(email);
    log.info({ invitationId, mail: mail.kind }, 'Invitation email sent');
  } catch (error) {
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    log.warn(
      {
        invitationId,
        mail: mail.kind,
        ...(typeof code === 'string' ? { errorCode: code } : {}),
        ...(typeof responseCode === 'number' ? { responseCode } : {}),
      },
      'Could not send the invitation email; the invitation stands and its acceptUrl can be shared by hand',
    );
  }
}

/** The organization's invitations, newest first. */
export async function listInvitations(
  db: Database,
  organizationId: string,
  now: Date,
  publicUrl: string,
): Promise<InvitationView[]> {
  const rows = await findOrganizationInvitations(db, organizationId);
  return rows.map((row) => viewOf(row, now, publicUrl));
}

/** An invitation addressed to a user, as their dashboard's Home lists it. */
export interface InvitationToUser {
  id: string;
  organizationName: string;
  role: MembershipRole;
  expiresAt: Date;
}

/**
 * The invitations the user can accept now: pending, not expired, addressed to their profile's address (the one an
 * accept must come with: docs/decisions.md#one-account-per-email), of an organization not retired; oldest first.
 * None without a profile.
 */
export async function invitationsToUser(db: Database, userId: string, now: Date): Promise<InvitationToUser[]> {
  const profile = await findUserProfile(db, userId);
  if (profile === undefined) return [];
  const rows = await findPendingInvitationsTo(db, profile.email, now);
  return rows.map(({ id, organizationName, role, expiresAt }) => ({ id, organizationName, role, expiresAt }));
}

/**
 * Revokes one of the organization's invitations: it can no longer be accepted. Revoking a revoked one answers it
 * as it is (its first revocation stands); an accepted one is 409 (the member is removed instead); another
 * organization's invitation or an unknown id is 404.
 */
export async function revokeInvitation(
  tx: DatabaseExecutor,
  input: { organizationId: string; invitationId: string; now: Date; publicUrl: string; audit: AuditContext },
): Promise<InvitationView> {
  const { organizationId, now } = input;
  if (!isUuid(input.invitationId)) throw notFound(INVITATION_NOT_FOUND);
  const invitation = await lockOrganizationInvitation(tx, organizationId, input.invitationId);
  if (invitation === undefined) throw notFound(INVITATION_NOT_FOUND);
  if (invitation.status === 'revoked') return viewOf(invitation, now, input.publicUrl);
  if (invitation.status === 'accepted') throw conflict(ALREADY_ACCEPTED);
  const revoked = await closeInvitation(tx, invitation.id, { status: 'revoked', closedAt: now });
  await recordAuditEvent(tx, input.audit, {
    organizationId,
    action: 'invitation.revoked',
    targetType: 'invitation',
    targetId: invitation.id,
    details: { email: invitation.email, role: invitation.role },
  });
  return viewOf(revoked, now, input.publicUrl);
}

/**
 * Sends a pending invitation again (docs/decisions.md#invitations), in the caller's transaction: its 7 days start
 * anew (an expired one is pending again), recorded as `invitation.resent`. Returns it with the email to send once the
 * transaction has committed (`sendInvitationEmail`), the email of a new invitation, in the name of who invited. 403
 * for an owner's invitation resent by a role without owners:write; 409 for an accepted or revoked one; another
 * organization's invitation or an unknown id is 404.
 */
export async function resendInvitation(
  tx: DatabaseExecutor,
  input: {
    organizationId: string;
    invitationId: string;
    /** The member who resends, and their role. */
    sender: { userId: string; role: MembershipRole };
    now: Date;
    publicUrl: string;
    audit: AuditContext;
  },
): Promise<{ invitation: InvitationView; email: MailMessage }> {
  const { organizationId, now } = input;
  if (!isUuid(input.invitationId)) throw notFound(INVITATION_NOT_FOUND);
  const found = await lockOrganizationInvitation(tx, organizationId, input.invitationId);
  if (found === undefined) throw notFound(INVITATION_NOT_FOUND);
  if (found.status === 'accepted') throw conflict(ALREADY_ACCEPTED);
  if (found.status === 'revoked') throw conflict(REVOKED_CANNOT_BE_RESENT);
  if (found.role === 'owner' && !allows(input.sender.role, 'owners:write')) {
    throw forbidden(refusalMessage('owners:write'));
  }
  const renewed = await renewInvitation(tx, found.id, new Date(now.getTime() + INVITATION_VALIDITY_MS));
  const invitation = viewOf(renewed, now, input.publicUrl);
  await recordAuditEvent(tx, input.audit, {
    organizationId,
    action: 'invitation.resent',
    targetType: 'invitation',
    targetId: invitation.id,
    details: { email: renewed.email, role: renewed.role, expiresAt: invitation.expiresAt },
  });
  const organizationName = (await findActiveOrganizationName(tx, organizationId)) ?? 'an organization';
  const inviter =
    (renewed.invitedBy === null ? undefined : await findUserProfile(tx, renewed.invitedBy)) ??
    (await findUserProfile(tx, input.sender.userId));
  return {
    invitation,
    email: invitationEmail({
      to: renewed.email,
      inviterName: nameOf(inviter),
      organizationName,
      role: renewed.role,
      invitation,
      pageUrl: invitationPageUrlOf(input.publicUrl, invitation.id),
    }),
  };
}

/**
 * Accepts an invitation for the caller, in the caller's transaction: the invitation row is locked, the membership
 * created in the invited role and the invitation closed, with their audit records. Anything that does not fit
 * (no address in the token, no profile, another address, an address that is another account's profile address, an
 * unknown, revoked, accepted or expired invitation, a retired organization) is the same 404, so ids cannot be probed; of two accepts at once the second is one of
 * these. A caller who is a member already gets 409 and the invitation stays pending.
 */
export async function acceptInvitation(
  tx: DatabaseExecutor,
  input: { invitationId: string; userId: string; tokenEmail: string | undefined; now: Date; audit: AuditContext },
): Promise<AcceptedMembershipView> {
  const { now, tokenEmail, userId } = input;
  if (!isUuid(input.invitationId) || tokenEmail === undefined) throw notFound(INVITATION_NOT_FOUND);
  if ((await findUserProfile(tx, userId)) === undefined) throw notFound(INVITATION_NOT_FOUND);
  const invitation = await lockInvitationFor(tx, input.invitationId, tokenEmail);
  if (invitation === undefined || invitation.status !== 'pending' || invitation.expiresAt.getTime() <= now.getTime()) {
    throw notFound(INVITATION_NOT_FOUND);
  }
  // An address that is another account's profile address is that account's: a token claiming it for someone else
  // (another identity, the same address in another case) accepts nothing (docs/decisions.md#one-account-per-email).
  const owner = await findUserIdByAddress(tx, invitation.email);
  if (owner !== undefined && owner !== userId) throw notFound(INVITATION_NOT_FOUND);
  const organizationName = await findActiveOrganizationName(tx, invitation.organizationId);
  if (organizationName === undefined) throw notFound(INVITATION_NOT_FOUND);

  const membership = await insertMembershipIfAbsent(tx, {
    organizationId: invitation.organizationId,
    userId,
    role: invitation.role,
    createdAt: now,
  });
  if (membership === undefined) throw conflict(YOU_ARE_A_MEMBER);
  await closeInvitation(tx, invitation.id, { status: 'accepted', acceptedBy: userId, closedAt: now });

  const audited = { organizationId: invitation.organizationId };
  await recordAuditEvent(tx, input.audit, {
    ...audited,
    action: 'invitation.accepted',
    targetType: 'invitation',
    targetId: invitation.id,
    details: { role: invitation.role },
  });
  await recordAuditEvent(tx, input.audit, {
    ...audited,
    action: 'member.added',
    targetType: 'user',
    targetId: userId,
    details: { role: invitation.role, invitationId: invitation.id },
  });
  return {
    organizationId: invitation.organizationId,
    organizationName,
    role: membership.role,
    joinedAt: membership.createdAt.toISOString(),
  };
}

/** An invitation as its invitee's page shows it (docs/decisions.md#dashboard-pages). */
export type InvitationForInvitee =
  | { state: 'other_address' }
  | {
      /** pending: it may be accepted; member: pending, but the user is a member already. */
      state: 'pending' | 'member' | 'expired' | 'revoked' | 'accepted';
      organizationId: string;
      organizationName: string;
      role: MembershipRole;
      email: string;
      /** Who invited, as the email names them; null once they are gone. */
      inviterName: string | null;
      expiresAt: Date;
    };

/**
 * The invitation for the user whose profile address is `email`, to show before accepting: undefined (a 404) for an
 * unknown id, one that is not a UUID or one of a retired organization; `other_address` for an invitation this user
 * cannot accept by its address (another address, or one that is another account's: the rules of `acceptInvitation`),
 * without its details; else its state and details.
 */
export async function invitationForInvitee(
  db: Database,
  input: { invitationId: string; userId: string; email: string; now: Date },
): Promise<InvitationForInvitee | undefined> {
  if (!isUuid(input.invitationId)) return undefined;
  const invitation = await findInvitationAddressedTo(db, input.invitationId, input.email);
  if (invitation === undefined) return undefined;
  const organizationName = await findActiveOrganizationName(db, invitation.organizationId);
  if (organizationName === undefined) return undefined;
  const owner = await findUserIdByAddress(db, invitation.email);
  if (!invitation.addressed || (owner !== undefined && owner !== input.userId)) return { state: 'other_address' };
  const inviter = invitation.invitedBy === null ? undefined : await findUserProfile(db, invitation.invitedBy);
  const expired = invitation.expiresAt.getTime() <= input.now.getTime();
  const member =
    invitation.status === 'pending' && (await membershipIn(db, input.userId, invitation.organizationId)) !== null;
  return {
    state: invitation.status !== 'pending' ? invitation.status : expired ? 'expired' : member ? 'member' : 'pending',
    organizationId: invitation.organizationId,
    organizationName,
    role: invitation.role,
    email: invitation.email,
    inviterName: inviter === undefined ? null : nameOf(inviter),
    expiresAt: invitation.expiresAt,
  };
}
