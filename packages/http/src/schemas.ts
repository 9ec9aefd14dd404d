import type { ErrorEnvelope as ErrorEnvelopeBody } from '@platform/errors';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** `{ success: true, message }`, e.g. "Payment initiated". */
export const SuccessMessage = Type.Object(
  { success: Type.Literal(true), message: Type.String() },
  { $id: 'SuccessMessage', additionalProperties: false },
);
export type SuccessMessage = Static<typeof SuccessMessage>;

/** `{ success: true }`, e.g. after marking a notification read. */
export const SuccessOnly = Type.Object(
  { success: Type.Literal(true) },
  { $id: 'SuccessOnly', additionalProperties: false },
);
export type SuccessOnly = Static<typeof SuccessOnly>;

/** Reference to the ErrorEnvelope shared schema (registered by @platform/errors), for response schemas. */
export const ErrorEnvelopeRef = Type.Unsafe<ErrorEnvelopeBody>(Type.Ref('ErrorEnvelope'));

const errorDescriptions: Readonly<Record<number, string>> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  402: 'Payment required or declined',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  415: 'Unsupported content type',
  422: 'Idempotency key reused with a different request',
  429: 'Rate limit exceeded',
  500: 'Internal error',
  503: 'Temporarily unavailable',
};

/** Response schemas documenting the error envelope for the given statuses: `response: { 200: X, ...errorResponses(400, 404) }`. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, TSchema> {
  const responses = {} as Record<S, TSchema>;
  for (const status of statuses) {
    responses[status] = Type.Unsafe<ErrorEnvelopeBody>(
      Type.Ref('ErrorEnvelope', { description: errorDescriptions[status] ?? 'Error' }),
    );
  }
  return responses;
}
