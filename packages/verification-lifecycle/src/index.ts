// The verification session lifecycle: every status change of a session, whoever asks for it, with its
// consequences in the caller's unit of work (docs/decisions.md#session-lifecycle).

export { activateOrganization } from './activation.js';
export { ACTIVATED_NOTIFICATION, addOrganizationActivation } from './activation-repository.js';
export { type ActivationSessionInput, createActivationSession } from './activation-session.js';
export { type CancelRequest, cancelSession } from './cancel.js';
export { type DecidedRow, listDecidedRows } from './decided-review-repository.js';
export { decisionDurationHistogram, decisionObserver } from './decision-duration.js';
export type { SessionFacts } from './events.js';
export {
  addSessionCreated,
  allowedMoves,
  canMove,
  checkEvidenceKey,
  commitMove,
  DECISION_DURATION_BUCKETS,
  expirableStatuses,
  finalStatuses,
  type HandOverRequest,
  handOverSession,
  holdReferenceOf,
  type LifecycleOptions,
  type MoveRequest,
  type MoveResult,
  moveSession,
  SESSION_NOT_FOUND,
  type SessionDecision,
  submittedDetailsKey,
  verifiedOutputsKey,
} from './lifecycle.js';
export { listOrganizationSessionRows, type OrganizationSessionFilter } from './organization-repository.js';
export { findSession, lastMovedTo, readSession, type SessionOwner, sessionsOwnedBy } from './repository.js';
export { type RequiredDocument, requiredDocumentKinds, requiredDocumentsFor } from './required-documents.js';
export { listReviewChecks, type ReviewCheckRow } from './review-check-repository.js';
export {
  addClaimDeletion,
  claimSession,
  findClaim,
  findCurrentDocument,
  findManualSession,
  listCurrentDocuments,
  listQueueRows,
  listTransitions,
  type QueueRow,
  type ReviewedOrganization,
  type ReviewSessionRow,
} from './review-repository.js';
export {
  openSubmittedDetails,
  type StatedPerson,
  type SubmittedDetails,
  SubmittedDetailsSchema,
} from './submitted-details.js';
export type {
  VerifiedBusiness,
  VerifiedBusinessPerson,
  VerifiedOutputs,
  VerifiedPerson,
} from './verified-outputs.js';
export { openVerifiedOutputs, sealedVerifiedOutputs, verifiedOutputsOf } from './verified-outputs-of-checks.js';
export { VerifiedOutputsSchema } from './verified-outputs-schema.js';
