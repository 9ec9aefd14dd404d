// The verification session lifecycle: every status change of a session, whoever asks for it, with its
// consequences in the caller's transaction (docs/decisions.md#session-lifecycle).

export type { SessionFacts } from './events.js';
export {
  allowedMoves,
  canMove,
  commitMove,
  DECISION_DURATION_BUCKETS,
  expirableStatuses,
  type HandOverRequest,
  handOverSession,
  holdReferenceOf,
  type LifecycleOptions,
  type MoveOptions,
  type MoveRequest,
  type MoveResult,
  moveSession,
  SESSION_NOT_FOUND,
  type SessionDecision,
  sessionCreatedRiders,
  submittedDetailsKey,
} from './lifecycle.js';
export { findSession, lastMovedTo, readSession } from './repository.js';
