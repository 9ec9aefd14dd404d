import { STATUS_CODES } from 'node:http';
import { type ErrorCode, isAppError, type ValidationDetail } from './app-error.js';
import { isBackingServiceOutage } from './backing-service-outage.js';
import { type SchemaValidationIssue, summarizeValidation } from './validation-details.js';

/** What the client is told about a failed request, and whether it is our fault (logged as an error). */
export type ClassifiedError = {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: ValidationDetail[];
  headers?: Record<string, string>;
  /** 5xx: logged with its cause; the message is generic unless it came from an AppError. */
  serverFault: boolean;
};

/** The parts of the request the classification reads (kept small so it is easy to call from anywhere). */
export type ErrorRequestContext = {
  contentType?: string | undefined;
  bodyLimit?: number | undefined;
  /** The client's connection closed before the request arrived whole (`IncomingMessage.readableAborted`). */
  requestAborted?: boolean | undefined;
};

type ErrorLike = {
  code?: unknown;
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
  validation?: unknown;
  validationContext?: unknown;
  headers?: unknown;
};

export const genericServerErrorMessage = 'Internal server error';

// A dropped database connection is usually back within seconds (a failover, a restart).
const OUTAGE_RETRY_AFTER_SECONDS = 5;

function clientError(statusCode: number, code: ErrorCode, message: string): ClassifiedError {
  return { statusCode, code, message, serverFault: false };
}

function serverError(
  statusCode = 500,
  code: ErrorCode = 'internal_error',
  message = genericServerErrorMessage,
): ClassifiedError {
  return { statusCode, code, message, serverFault: true };
}

function statusOf(error: ErrorLike): number | undefined {
  const status = error.statusCode ?? error.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

const codeByClientStatus: Readonly<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
};

function unsupportedContentTypeMessage(contentType: string | undefined): string {
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  if (mediaType === '') return 'The request has a body but no Content-Type header';
  return `Unsupported Content-Type ${mediaType.slice(0, 100)}`;
}

// Fastify's own errors and those of the @fastify plugins we use, by their `code`.
function classifyFrameworkError(code: string, context: ErrorRequestContext): ClassifiedError | undefined {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return clientError(400, 'invalid_json', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return clientError(400, 'invalid_json', 'Request body is empty but Content-Type is application/json');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return clientError(400, 'invalid_json', 'A multipart field declared as JSON is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return clientError(
        413,
        'payload_too_large',
        context.bodyLimit === undefined
          ? 'Request body is too large'
          : `Request body is larger than the limit of ${context.bodyLimit} bytes`,
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return clientError(413, 'payload_too_large', 'Uploaded file is too large');
    case 'FST_FILES_LIMIT':
      return clientError(413, 'payload_too_large', 'Too many files in the request');
    case 'FST_FIELDS_LIMIT':
      return clientError(413, 'payload_too_large', 'Too many fields in the request');
    case 'FST_PARTS_LIMIT':
      return clientError(413, 'payload_too_large', 'Too many parts in the multipart request');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return clientError(415, 'unsupported_media_type', unsupportedContentTypeMessage(context.contentType));
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return clientError(415, 'unsupported_media_type', 'Request must be multipart/form-data');
    case 'FST_PROTO_VIOLATION':
      return clientError(400, 'validation_error', 'A multipart field name is not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return clientError(400, 'bad_request', 'The request ended before the multipart body was complete');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return clientError(400, 'bad_request', 'Request body size did not match Content-Length');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return clientError(400, 'bad_request', 'Request URL is malformed');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return clientError(414, 'bad_request', 'A path parameter is too long');
    default:
      return undefined;
  }
}

function classifyValidation(error: ErrorLike): ClassifiedError | undefined {
  if (Array.isArray(error.validation)) {
    const context = typeof error.validationContext === 'string' ? error.validationContext : 'body';
    const summary = summarizeValidation(context, error.validation as SchemaValidationIssue[]);
    return { ...clientError(400, 'validation_error', summary.message), details: summary.details };
  }
  if (error.code === 'FST_ERR_VALIDATION') {
    // A custom validator threw: its message is meant for the client.
    const message = typeof error.message === 'string' && error.message !== '' ? error.message : 'Request is invalid';
    return { ...clientError(400, 'validation_error', message), details: [] };
  }
  return undefined;
}

function stringHeaders(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
}

/**
 * Decides status, code and client-facing message for anything thrown while handling a request.
 * Only AppErrors and known client errors (4xx) reveal their message; everything else is a generic 500.
 */
export function classifyError(thrown: unknown, context: ErrorRequestContext = {}): ClassifiedError {
  if (isAppError(thrown)) {
    const classified: ClassifiedError = {
      statusCode: thrown.statusCode,
      code: thrown.code,
      message: thrown.message,
      serverFault: thrown.statusCode >= 500,
    };
    if (thrown.details !== undefined) classified.details = thrown.details;
    if (thrown.headers !== undefined) classified.headers = thrown.headers;
    return classified;
  }
  if (typeof thrown !== 'object' || thrown === null) return serverError();
  const error = thrown as ErrorLike;

  const validation = classifyValidation(error);
  if (validation !== undefined) return validation;

  if (typeof error.code === 'string') {
    const framework = classifyFrameworkError(error.code, context);
    if (framework !== undefined) return framework;
  }

  // Node fails a request whose client went away mid-body with ECONNRESET: the client's doing, not an outage.
  if (context.requestAborted === true && error.code === 'ECONNRESET') {
    return clientError(400, 'bad_request', 'The connection closed before the request was complete');
  }

  if (isBackingServiceOutage(error)) {
    return {
      ...serverError(503, 'service_unavailable', 'Service temporarily unavailable; retry shortly'),
      headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
    };
  }

  const status = statusOf(error);
  if (status === undefined || status >= 500) {
    return status === 503 ? serverError(503, 'service_unavailable', 'Service temporarily unavailable') : serverError();
  }
  if (thrown instanceof SyntaxError && status === 400) {
    return clientError(400, 'invalid_json', 'Request body is not valid JSON');
  }

  const code = codeByClientStatus[status] ?? 'bad_request';
  const message =
    typeof error.message === 'string' && error.message !== '' ? error.message : (STATUS_CODES[status] ?? 'Bad request');
  const classified = clientError(status, code, message);
  const headers = stringHeaders(error.headers);
  if (headers !== undefined) classified.headers = headers;
  return classified;
}
