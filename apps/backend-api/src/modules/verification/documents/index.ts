// What the app and the hosted page use of the capture by API: its routes, and the capture, submission and erasure
// the hosted page and the retention job share with them.

export { missingDocumentKinds } from './document-kinds.js';
export {
  isSentFor,
  kindsStillToResend,
  type Resubmission,
  resubmissionOf,
} from './resubmission.js';
export { documentRoutes } from './routes.js';
export {
  captureDocument,
  erasePersonalData,
  listDocuments,
  type SessionRef,
  type SubmissionOptions,
  sessionTakingDocuments,
  submitSession,
} from './service.js';
export {
  checkSubmittedDetails,
  givesDetails,
  type SubmissionInput,
} from './submitted-details.js';
