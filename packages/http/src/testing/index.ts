export { type Answer, answerOf } from './answer.js';
export {
  checkFuzzedAnswers,
  edgeProbeCoverageProblems,
  type FuzzCoverage,
  type FuzzTarget,
  type NoSuccessReason,
  probeCoverageKey,
  successCoverageProblems,
  unstorableTextCoverageProblems,
} from './check-answers.js';
export { envelopeProblem } from './envelope.js';
export { fuzzedCoverageProblems } from './fuzz-coverage.js';
export type { FuzzProbe, FuzzRequest } from './fuzz-request.js';
export {
  deeplyNested,
  hostileJson,
  hostileKeys,
  hostileNumbers,
  hostileStrings,
  malformedJsonText,
  pollutingKeys,
  pollutingObjects,
  unstorableCharacters,
  unstorableStrings,
} from './hostile-values.js';
export {
  extremeDates,
  idempotencyKeyHeaderSets,
  notOnOneLineCharacters,
  notOnOneLineStrings,
  notUtf8Bytes,
  storableEdgeDates,
  unstorableDates,
} from './input-edges.js';
export { captureLogs, type LogCapture, secretsIn } from './log-capture.js';
export type { FuzzRequestOptions } from './request-options.js';
export { requestsFor, requestsForRoutes, toInjectOptions } from './requests.js';
export { type RouteUnderTest, routesUnderTest } from './routes.js';
export { fuzzRunSettings } from './run-settings.js';
export { type JsonSchema, type SchemaLookup, valuesOf } from './schema-values.js';
export {
  baseUrlOf,
  capturingLogger,
  jsonOfSize,
  parseRawAnswer,
  type RawAnswer,
  sendRawRequest,
  type UploadAnswer,
  uploadStreamWithFetch,
  uploadWithFetch,
  uploadWithHttpRequest,
} from './transport.js';
export {
  schemaViolationMessages,
  unreadableMessages,
  type ViolationMessage,
  validatorPhrasing,
} from './validation-messages.js';
