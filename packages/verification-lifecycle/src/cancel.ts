import type { UnitOfWork, VerificationSession } from '@platform/db';
import { type LifecycleOptions, moveSession } from './lifecycle.js';
import type { SessionOwner } from './repository.js';

export interface CancelRequest {
  sessionId: string;
  /** Who cancels it: `api_key:<id>` (backend-api) or `member:<userId>` (main-api). */
  actor: string;
  now: Date;
  /** Only this owner's session: another organization's (or environment's, when given) is a 404, as an unknown one. */
  owner: SessionOwner;
}

/**
 * Cancels the owner's session while it is `pending` or `requires_input`, in `work`: its hold is released, its
 * `verification_session.canceled` callback and transition written at the unit's commit
 * (docs/decisions.md#cancel-from-the-main-api). 404 for an unknown id or another owner's, 409 from any other status;
 * of two cancels at once exactly one moves the session (the other's conditional update finds it canceled: 409), so
 * the hold is released once. The one cancel of both services.
 */
export async function cancelSession(
  work: UnitOfWork,
  request: CancelRequest,
  options: LifecycleOptions,
): Promise<VerificationSession> {
  const { session } = await moveSession(work, { ...request, to: 'canceled' }, options);
  return session;
}
