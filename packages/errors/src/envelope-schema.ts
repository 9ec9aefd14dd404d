import { type ErrorCode, errorCodes, type ValidationDetail } from './app-error.js';

/** The body of every error response. */
export type ErrorEnvelope = {
  success: false;
  error: string;
  code: ErrorCode;
  requestId: string;
  details?: ValidationDetail[];
};

/** JSON schema of {@link ErrorEnvelope}, registered by the errorEnvelope plugin for `$ref: 'ErrorEnvelope#'`. */
export const errorEnvelopeSchema = {
  $id: 'ErrorEnvelope',
  title: 'ErrorEnvelope',
  description: 'Body of every error response.',
  type: 'object',
  required: ['success', 'error', 'code', 'requestId'],
  properties: {
    success: { type: 'boolean', const: false },
    error: { type: 'string', description: 'Human-readable message.' },
    code: { type: 'string', enum: [...errorCodes], description: 'Machine-readable error code.' },
    requestId: { type: 'string', description: 'Echo of the x-request-id response header.' },
    details: {
      type: 'array',
      description: 'Present on validation errors: one entry per failed rule.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: "Location, e.g. '/amount' or 'querystring/newSeats'." },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;
