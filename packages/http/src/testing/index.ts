export { type Answer, answerOf } from './answer.js';
export { checkFuzzedAnswers, type FuzzCoverage, type FuzzTarget, type NoSuccessReason, successCoverageProblems } from './check-answers.js';
export { envelopeProblem } from './envelope.js';
export { deeplyNested, hostileJson, hostileKeys, hostileNumbers, hostileStrings, malformedJsonText, pollutingKeys, pollutingObjects } from './hostile-values.js';
export { type FuzzRequest, type FuzzRequestOptions, requestsFor, requestsForRoutes, toInjectOptions } from './requests.js';
export { routesUnderTest, type RouteUnderTest } from './routes.js';
export { fuzzRunSettings } from './run-settings.js';
export { type JsonSchema, type SchemaLookup, valuesOf } from './schema-values.js';
export { captureLogs, type LogCapture, secretsIn } from './log-capture.js';
