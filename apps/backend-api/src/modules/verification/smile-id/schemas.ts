import { Type } from '@sinclair/typebox';

/**
 * Smile ID's result callback, taken as Smile ID sends it: the handler checks the signature before it reads any other
 * field, so no field is refused by the schema first (a bad signature is always the 401).
 */
export const SmileIdCallbackBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      "Smile ID's job result: `signature` (base64 HMAC-SHA256 under the API key of `timestamp` + partner id + " +
      '"sid_request"), `timestamp`, `ResultCode`, `SmileJobID`, `PartnerParams.job_id`, and the rest of the result.',
  },
);

/** Taken: applied, or already applied, or about a job that is no longer waiting; Smile ID need not send it again. */
export const SmileIdCallbackResponse = Type.Object({ success: Type.Literal(true) }, { additionalProperties: false });
