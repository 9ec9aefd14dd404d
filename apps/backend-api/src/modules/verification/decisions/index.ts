// What the rest of backend-api uses of the decision sources: the configuration's rules (read by config.ts and the
// verification settings), the source a new session gets, whether the hosted page's buttons decide a session, and
// the port through which an automated source hears of submissions.
export {
  type DecisionSettings,
  type DecisionTable,
  decidedByHostedPageButtons,
  decisionSourceFor,
  noSubmissionListener,
  parseDecisionRules,
  type SubmissionListener,
  usesDecisionSource,
} from './decision-source.js';
