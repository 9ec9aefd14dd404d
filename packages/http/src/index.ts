export { createServer, type AppServer, type CreateServerOptions } from './create-server.js';
export { loadConfig, ConfigError, describeExpectation, type ConfigProblem } from './config.js';
export { listen, type ListenOptions } from './listen.js';
export { ErrorEnvelopeRef, SuccessMessage, SuccessOnly, errorResponses } from './schemas.js';
export { docsPrefix, type SecurityScheme, type ServiceInfo } from './openapi.js';
export type { ReadinessCheck } from './health.js';
export { isAcceptableRequestId, requestIdFrom, requestIdHeader } from './request-id.js';
export { createValidatorFactory } from './validator-compiler.js';
export type { PlatformRouteConfig } from './route-config.js';
