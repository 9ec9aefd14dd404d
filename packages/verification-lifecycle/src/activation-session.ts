import type { DecisionSourceKind, SessionLocale, Transaction, VerificationSession } from '@platform/db';
import { unitOfWorkIn } from '@platform/db';
import { ensureWallet } from '@platform/ledger';
import { addSessionCreated, type LifecycleOptions } from './lifecycle.js';
import { insertPlatformSession } from './repository.js';
import { requiredDocumentsFor } from './required-documents.js';

// The session that activates an organization (docs/decisions.md#going-live): the platform's live KYB session of it,
// which main-api opens for its owner; activation.ts writes what its verification causes.

export interface ActivationSessionInput {
  /** The organization to activate: the session's end user. */
  organizationId: string;
  /** The platform's own organization, which owns the session. */
  platformOrganizationId: string;
  decisionSource: DecisionSourceKind;
  locale: SessionLocale;
  /** Where the hosted page's final page leads back to (the dashboard's Going live page), or null for no link. */
  returnUrl: string | null;
  /** `user:<id>`: who started it. */
  actor: string;
  now: Date;
  ttlMs: number;
}

/**
 * Creates the platform's live KYB session of an organization, in the caller's transaction, as backend-api creates
 * one (its first transition and its created event with it) but free: the platform verifies its customers at its own
 * cost, so nothing is held. The platform's live wallet is created when it was never used (the row a session names).
 */
export async function createActivationSession(
  tx: Transaction,
  input: ActivationSessionInput,
  options: LifecycleOptions,
): Promise<VerificationSession> {
  const owner = { organizationId: input.platformOrganizationId, environment: 'live' as const };
  const wallet = await ensureWallet(tx, owner);
  const session = await insertPlatformSession(tx, {
    organizationId: owner.organizationId,
    environment: owner.environment,
    apiKeyId: null,
    walletId: wallet.id,
    type: 'kyb',
    status: 'pending',
    externalEndUserId: input.organizationId,
    appName: null,
    callbackUrl: null,
    locale: input.locale,
    returnUrl: input.returnUrl,
    privacyNoticeUrl: null,
    decisionSource: input.decisionSource,
    price: 0,
    requiredDocuments: requiredDocumentsFor('kyb'),
    expiresAt: new Date(input.now.getTime() + input.ttlMs),
    createdAt: input.now,
    updatedAt: input.now,
  });
  await unitOfWorkIn(tx, async (work) => {
    addSessionCreated(work, session, input.actor, options);
  });
  return session;
}
