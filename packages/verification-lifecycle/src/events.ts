import type { Transaction, VerificationSession, VerificationStatus } from '@platform/db';
import { enqueueWebhookEvent } from '@platform/webhooks';

type VerificationEventType = `verification_session.${'created' | Exclude<VerificationStatus, 'pending'>}`;

/** The event type that reports a session reaching `status` (`pending` is only ever reached by creation). */
function eventTypeFor(status: VerificationStatus): VerificationEventType {
  return status === 'pending' ? 'verification_session.created' : `verification_session.${status}`;
}

/**
 * Writes the session's event to the outbox in the caller's transaction (docs/decisions.md#one-webhooks-package), so it
 * is sent if and only if the change it reports commits. The data names the session, never the person behind it.
 */
export async function recordSessionEvent(
  tx: Transaction,
  session: VerificationSession,
  previousStatus: VerificationStatus | null,
  now: Date,
): Promise<void> {
  await enqueueWebhookEvent(tx, {
    organizationId: session.organizationId,
    environment: session.environment,
    type: eventTypeFor(session.status),
    data: {
      sessionId: session.id,
      type: session.type,
      status: session.status,
      previousStatus,
      environment: session.environment,
      externalEndUserId: session.externalEndUserId,
      lastError: session.lastError,
      // With requires_input: the documents to ask for again, so a customer capturing in its own app knows them
      // without fetching the session (docs/decisions.md#resubmission). null otherwise.
      resubmitDocuments: session.resubmitDocuments,
    },
    targetUrl: session.callbackUrl,
    now,
  });
}
