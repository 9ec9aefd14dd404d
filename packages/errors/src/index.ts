export {
  AppError,
  type AppErrorOptions,
  type ErrorCode,
  errorCodes,
  isAppError,
  statusCodeOf,
  type ValidationDetail,
} from './app-error.js';
export {
  type ClassifiedError,
  classifyError,
  type ErrorRequestContext,
  genericServerErrorMessage,
} from './classify-error.js';
export { type ErrorEnvelope, errorEnvelopeSchema } from './envelope-schema.js';
export { errorEnvelope, sendErrorEnvelope, sendRouteNotFound } from './error-envelope-plugin.js';
export {
  badRequest,
  type CauseOptions,
  conflict,
  forbidden,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  insufficientFunds,
  internalError,
  invalidFields,
  notFound,
  organizationNotActivated,
  paymentFailed,
  providerUnavailable,
  quotaExceeded,
  rateLimited,
  serviceUnavailable,
  unauthorized,
  unsupportedPhoneOperator,
  validationError,
} from './factories.js';
export { fieldNameOf } from './field-names.js';
export { ALLOWED_ANNOTATION, formatPhrases } from './schema-phrases.js';
export { type SchemaValidationIssue, summarizeValidation, type ValidationSummary } from './validation-details.js';
