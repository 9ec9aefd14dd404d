// The queries of manual review (docs/decisions.md#manual-review) are @platform/verification-lifecycle's: they read
// the verification sessions, which belong to backend-api's verification module and reach main-api through that
// package (docs/decisions.md#one-owner-per-table). The customer organization's name comes from
// @platform/organizations, which publishes the organizations' statements.
export { findOrganizationName } from '@platform/organizations';
export {
  addClaimDeletion,
  claimSession,
  findClaim,
  findCurrentDocument,
  findManualSession,
  listCurrentDocuments,
  listDecidedRows,
  listQueueRows,
  listReviewChecks,
  listTransitions,
  type ReviewSessionRow,
} from '@platform/verification-lifecycle';
