import type { UnitOfWork, VerificationSession, VerificationStatus } from '@platform/db';
import { addWebhookEvent } from '@platform/webhooks';

/** What the writes that record a status change need to know of the session. */
export type SessionFacts = Pick<
  VerificationSession,
  | 'id'
  | 'organizationId'
  | 'environment'
  | 'type'
  | 'status'
  | 'externalEndUserId'
  | 'lastError'
  | 'lastErrorCode'
  | 'resubmitDocuments'
  | 'callbackUrl'
>;

type VerificationEventType = `verification_session.${'created' | Exclude<VerificationStatus, 'pending'>}`;

/** The event type that reports a session reaching `status` (`pending` is only ever reached by creation). */
function eventTypeFor(status: VerificationStatus): VerificationEventType {
  return status === 'pending' ? 'verification_session.created' : `verification_session.${status}`;
}

/**
 * Adds the session's event for the outbox (docs/decisions.md#one-webhooks-package) to the unit of work of the change,
 * so it is sent if and only if the change it reports commits. The data names the session, never the person behind it.
 */
export function addSessionEvent(
  work: UnitOfWork,
  session: SessionFacts,
  previousStatus: VerificationStatus | null,
  now: Date,
): void {
  addWebhookEvent(work, {
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
      // What lastError is, when the service ended the session for a reason of its own (consent_declined).
      lastErrorCode: session.lastErrorCode,
      // With requires_input: the documents to ask for again, so a customer capturing in its own app knows them
      // without fetching the session (docs/decisions.md#resubmission). null otherwise.
      resubmitDocuments: session.resubmitDocuments,
    },
    targetUrl: session.callbackUrl,
    now,
  });
}
