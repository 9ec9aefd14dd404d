/** Machine-readable error codes carried in the `code` field of every error envelope. */
export type ErrorCode =
  | 'validation_error'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'quota_exceeded'
  | 'organization_not_activated'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'insufficient_funds'
  | 'payment_failed'
  | 'unsupported_phone_operator'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'request_header_fields_too_large'
  | 'rate_limited'
  | 'provider_unavailable'
  | 'service_unavailable'
  | 'internal_error';

/** HTTP status of each code (docs/decisions.md#error-codes). */
export const statusCodeOf: Readonly<Record<ErrorCode, number>> = Object.freeze({
  validation_error: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  quota_exceeded: 403,
  organization_not_activated: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  insufficient_funds: 402,
  payment_failed: 402,
  unsupported_phone_operator: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  request_header_fields_too_large: 431,
  rate_limited: 429,
  provider_unavailable: 503,
  service_unavailable: 503,
  internal_error: 500,
});

export const errorCodes = Object.freeze(Object.keys(statusCodeOf) as ErrorCode[]);

/** One failed rule of a validated request: where (`/amount`, `querystring/newSeats`) and what. */
export type ValidationDetail = { path: string; message: string };

export type AppErrorOptions = {
  details?: ValidationDetail[];
  /** Response headers the error implies, e.g. WWW-Authenticate or Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
};

// A global brand, so an AppError is recognised even if two copies of this package are loaded.
const appErrorBrand = Symbol.for('@platform/errors.AppError');

/**
 * An error whose message is safe to show to the client. The error handler renders it as the envelope
 * with its own status and code; anything that is not an AppError becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details?: ValidationDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCodeOf[code];
    if (options.details !== undefined) this.details = options.details;
    if (options.headers !== undefined) this.headers = options.headers;
    Object.defineProperty(this, appErrorBrand, { value: true });
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    value instanceof AppError ||
    (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[appErrorBrand] === true)
  );
}
