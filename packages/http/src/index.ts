export {
  CONFIG_PLACEHOLDER,
  ConfigError,
  type ConfigProblem,
  describeExpectation,
  httpUrl,
  loadConfig,
  loadConfigOrExit,
  type ServiceConfig,
  type ServiceEnv,
  serviceConfigOf,
} from './config.js';
export { type AppServer, type CreateServerOptions, createServer } from './create-server.js';
export type { ReadinessCheck } from './health.js';
export { type ListenOptions, listen } from './listen.js';
export {
  createMetrics,
  metricsPath,
  moduleCounter,
  moduleGauge,
  moduleHistogram,
  type PlatformMetrics,
  unmatchedRoute,
} from './metrics.js';
export { docsPrefix, type SecurityScheme, type ServiceInfo } from './openapi.js';
export { type PeriodicJob, type PeriodicJobLogger, type PeriodicJobOptions, startPeriodicJob } from './periodic-job.js';
export { isAcceptableRequestId, requestIdFrom, requestIdHeader } from './request-id.js';
export { addRequestLogFacts } from './request-log.js';
export type { PlatformRouteConfig } from './route-config.js';
export {
  compareRoutesWithOpenApi,
  openApiPathOf,
  type RegisteredRoute,
  type RouteInventoryComparison,
} from './route-inventory.js';
export { ErrorEnvelopeRef, errorResponses, SuccessMessage, SuccessOnly } from './schemas.js';
export { nullable, stringEnum } from './serializable-schemas.js';
export { isSingleLineName, singleLineName } from './single-line-name.js';
export { isStorableText, refuseUnstorableText, toStorableText, unstorableTextMessage } from './storable-text.js';
export {
  EARLIEST_STORABLE_TIME,
  isStorableTime,
  LATEST_STORABLE_TIME,
  readStorableDate,
  readStorableDateTime,
} from './storable-time.js';
export { createValidatorFactory } from './validator-compiler.js';
