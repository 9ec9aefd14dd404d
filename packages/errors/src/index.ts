export {
  AppError,
  errorCodes,
  isAppError,
  statusCodeOf,
  type AppErrorOptions,
  type ErrorCode,
  type ValidationDetail,
} from './app-error.js';
export {
  badRequest,
  conflict,
  forbidden,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  insufficientFunds,
  internalError,
  notFound,
  paymentFailed,
  providerUnavailable,
  quotaExceeded,
  rateLimited,
  serviceUnavailable,
  unauthorized,
  unsupportedPhoneOperator,
  validationError,
  type CauseOptions,
} from './factories.js';
export { errorEnvelopeSchema, type ErrorEnvelope } from './envelope-schema.js';
export {
  classifyError,
  genericServerErrorMessage,
  type ClassifiedError,
  type ErrorRequestContext,
} from './classify-error.js';
export { summarizeValidation, type SchemaValidationIssue, type ValidationSummary } from './validation-details.js';
export { errorEnvelope, sendErrorEnvelope, sendRouteNotFound } from './error-envelope-plugin.js';
