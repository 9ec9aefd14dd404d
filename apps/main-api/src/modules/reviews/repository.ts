// The queries of manual review (docs/decisions.md#manual-review) are @platform/verification-lifecycle's: they read
// the verification sessions, which belong to backend-api's verification module and reach main-api through that
// package (docs/decisions.md#one-owner-per-table).
export {
  addClaimDeletion,
  claimSession,
  findClaim,
  findCurrentDocument,
  findManualSession,
  listCurrentDocuments,
  listQueueRows,
  listTransitions,
  type ReviewSessionRow,
} from '@platform/verification-lifecycle';
