import type { Database, MailSubscriptionStatus } from '@platform/db';
import { isActivated } from '../activation/index.js';
import { subscriptionViewOf, unpaidInvoiceCount } from '../billing/index.js';
import { type InvitationToUser, invitationsToUser, listInvitations } from '../invitations/index.js';
import { listOrganizationWallets, type OrganizationWalletView } from '../wallets/index.js';
import { listWebhookEvents } from '../webhook-deliveries/index.js';
import type { DashboardOrganization } from './context.js';

// What Home says needs attention (docs/decisions.md#dashboard-pages), each fact read through the service of its
// module, as the API reads it: the organization's wallets, subscription, activation, unpaid invoices, callbacks that
// failed for good lately and invitations not answered, and the invitations addressed to the user.

/** How far back a callback that failed for good still needs attention. */
const FAILED_CALLBACKS_DAYS = 7;
/** Counted up to this many; beyond, Home says "more than". */
const FAILED_CALLBACKS_COUNTED = 100;

export interface OrganizationAttention {
  /** Live, then test. */
  wallets: OrganizationWalletView[];
  /** Null: the organization never had a subscription. */
  subscriptionStatus: MailSubscriptionStatus | null;
  activated: boolean;
  unpaidInvoices: number;
  failedCallbacks: { count: number; more: boolean };
  pendingInvitations: number;
}

export interface HomeAttention {
  /** The organization shown; null for a user in none. */
  organization: OrganizationAttention | null;
  invitationsToYou: InvitationToUser[];
}

export interface HomeAttentionSources {
  db: Database;
  now: Date;
  publicUrl: string;
  /** Whole KES a test wallet never used starts with, as the wallet routes create it. */
  testWalletCredit: number;
}

export async function homeAttentionOf(
  sources: HomeAttentionSources,
  userId: string,
  organization: DashboardOrganization | null,
): Promise<HomeAttention> {
  const { db, now } = sources;
  const [organizationAttention, invitationsToYou] = await Promise.all([
    organization === null ? null : organizationAttentionOf(sources, organization.id),
    invitationsToUser(db, userId, now),
  ]);
  return { organization: organizationAttention, invitationsToYou };
}

async function organizationAttentionOf(
  { db, now, publicUrl, testWalletCredit }: HomeAttentionSources,
  organizationId: string,
): Promise<OrganizationAttention> {
  const since = new Date(now.getTime() - FAILED_CALLBACKS_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const [wallets, subscription, activated, unpaidInvoices, failed, invitations] = await Promise.all([
    listOrganizationWallets(db, organizationId, { testCredit: testWalletCredit }),
    subscriptionViewOf(db, organizationId),
    isActivated(db, organizationId),
    unpaidInvoiceCount(db, organizationId),
    listWebhookEvents(db, organizationId, {
      environment: undefined,
      type: undefined,
      outcome: 'failed',
      from: since,
      to: undefined,
      limit: FAILED_CALLBACKS_COUNTED,
      cursor: undefined,
    }),
    listInvitations(db, organizationId, now, publicUrl),
  ]);
  return {
    wallets,
    subscriptionStatus: subscription?.status ?? null,
    activated,
    unpaidInvoices,
    failedCallbacks: { count: failed.events.length, more: failed.nextCursor !== null },
    pendingInvitations: invitations.filter((invitation) => invitation.status === 'pending').length,
  };
}
