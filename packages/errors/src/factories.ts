import { AppError, type ValidationDetail } from './app-error.js';
import { sentenceOf } from './field-names.js';

/** Cause of an error, logged by the error handler but never sent to the client. */
export type CauseOptions = { cause?: unknown };

// Retry-After is whole seconds; never advise retrying "now" while the conflict still holds.
function retryAfterHeader(seconds: number): Record<string, string> {
  const whole = Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 1;
  return { 'Retry-After': String(whole) };
}

export function validationError(message: string, details?: ValidationDetail[]): AppError {
  return new AppError('validation_error', message, details === undefined ? {} : { details });
}

/**
 * A 400 `validation_error` for fields a service found wrong, worded as schema failures are: the message names each
 * field as the API does (`{path: 'querystring/from', message: 'must be before to'}` says "from must be before to";
 * docs/decisions.md#validation-messages).
 */
export function invalidFields(details: readonly ValidationDetail[]): AppError {
  return validationError(details.length === 0 ? 'The request is invalid' : sentenceOf(details), [...details]);
}

export function badRequest(message: string): AppError {
  return new AppError('bad_request', message);
}

export function unauthorized(message = 'Authentication required', challenge = 'Bearer'): AppError {
  return new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': challenge } });
}

export function forbidden(message: string): AppError {
  return new AppError('forbidden', message);
}

export function quotaExceeded(message: string): AppError {
  return new AppError('quota_exceeded', message);
}

export function notFound(message: string): AppError {
  return new AppError('not_found', message);
}

export function conflict(message: string): AppError {
  return new AppError('conflict', message);
}

export function idempotencyKeyInUse(retryAfterSeconds: number): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this idempotency key is still being processed; retry later',
    { headers: retryAfterHeader(retryAfterSeconds) },
  );
}

export function idempotencyKeyReused(): AppError {
  return new AppError('idempotency_key_reused', 'This idempotency key was already used with a different request');
}

/**
 * 403 for what only an activated organization may do (live API keys, live top-ups): the message says how to go live
 * (docs/decisions.md#going-live).
 */
export function organizationNotActivated(message: string): AppError {
  return new AppError('organization_not_activated', message);
}

export function insufficientFunds(message: string): AppError {
  return new AppError('insufficient_funds', message);
}

export function paymentFailed(message: string, options: CauseOptions = {}): AppError {
  return new AppError('payment_failed', message, options);
}

export function unsupportedPhoneOperator(message: string): AppError {
  return new AppError('unsupported_phone_operator', message);
}

export function providerUnavailable(message: string, options: CauseOptions = {}): AppError {
  return new AppError('provider_unavailable', message, options);
}

export function serviceUnavailable(message: string, options: CauseOptions = {}): AppError {
  return new AppError('service_unavailable', message, options);
}

export function internalError(message = 'Internal server error', options: CauseOptions = {}): AppError {
  return new AppError('internal_error', message, options);
}

export function rateLimited(retryAfterSeconds: number): AppError {
  const headers = retryAfterHeader(retryAfterSeconds);
  return new AppError('rate_limited', `Rate limit exceeded, retry in ${headers['Retry-After']} seconds`, {
    headers,
  });
}
