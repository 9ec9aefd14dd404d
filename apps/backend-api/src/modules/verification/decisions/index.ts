// What the rest of backend-api uses of the decision sources: the configuration's rules (read by config.ts and the
// verification settings), the source a new session gets, and whether the hosted page's buttons decide a session.
export {
  type DecisionSettings,
  type DecisionTable,
  decidedByHostedPageButtons,
  decisionSourceFor,
  parseDecisionRules,
} from './decision-source.js';
