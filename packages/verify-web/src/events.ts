// The events the hosted verification page posts to the page that opened it (docs/decisions.md#front-end-sdk).

/** A session's final statuses: nothing changes it after one of these. */
export const finalStatuses = ['verified', 'rejected', 'expired', 'canceled'] as const;
export type FinalStatus = (typeof finalStatuses)[number];

/**
 * What `onEvent` receives:
 * - `verification.submitted`: the person sent everything asked for; the session is being checked.
 * - `verification.completed`: the session reached its final `status`. Confirm it on your server (the signed
 *   callback, or `GET /v1/verify/sessions/:id`) before acting on it: a browser can be made to say anything.
 * - `verification.closed`: the person left: closed the popup, or declined the consent notice.
 *
 * The page may send an event again when it is reloaded.
 */
export type VerificationEvent =
  | { type: 'verification.submitted' }
  | { type: 'verification.completed'; status: FinalStatus }
  | { type: 'verification.closed' };

/**
 * The event a message's data carries when it has one of the documented shapes, as a new object with the documented
 * fields only; undefined for anything else.
 */
export function readVerificationEvent(data: unknown): VerificationEvent | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { type, status } = data as { type?: unknown; status?: unknown };
  if (type === 'verification.submitted' || type === 'verification.closed') return { type };
  if (type === 'verification.completed' && finalStatuses.includes(status as FinalStatus)) {
    return { type, status: status as FinalStatus };
  }
  return undefined;
}
