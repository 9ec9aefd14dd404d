import { errorEnvelopeSchema } from '@platform/errors';
import { Ajv } from 'ajv';

const validate = new Ajv({ allErrors: true, strict: false }).compile({
  ...errorEnvelopeSchema,
  additionalProperties: false,
});

/** Why `body` (a response's text) is not the error envelope, or `undefined` when it is. */
export function envelopeProblem(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 200)}`;
  }
  if (validate(parsed)) return undefined;
  return `not the error envelope (${JSON.stringify(validate.errors?.map((error) => `${error.instancePath} ${error.message}`))}): ${body.slice(0, 200)}`;
}
