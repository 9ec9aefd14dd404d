import { idTypes, type VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { nullable, stringEnum } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';
import { submittedDetailsKey } from './lifecycle.js';

// What a submission stated, as backend-api seals it on the session (docs/decisions.md#capture-by-api) and every
// reader opens it: backend-api's automated decision sources and export, the verified data's fallback, main-api's
// review. One shape and one schema, so a field the capture adds is one every reader's answer may carry.

const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD.' });

/** What a person states beside the ID type and number, each only when the form or the API asked for it. */
const StatedPersonSchema = {
  firstName: Type.Optional(Type.String()),
  middleName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  dateOfBirth: Type.Optional(DateOnly),
  documentExpiry: Type.Optional(DateOnly),
  nationality: Type.Optional(Type.String({ description: 'ISO 3166 alpha-3.' })),
  mrz: Type.Optional(
    Type.String({ description: "A passport's two machine-readable lines of 44, joined by a newline." }),
  ),
};

/** @public The sealed details' schema, for an answer that shows them. */
export const SubmittedDetailsSchema = Type.Union([
  Type.Object(
    { type: Type.Literal('kyc'), idType: stringEnum(idTypes), idNumber: Type.String(), ...StatedPersonSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('kyb'), registrationNumber: Type.String(), companyName: nullable(Type.String()) },
    { additionalProperties: false },
  ),
]);

export type SubmittedDetails = Static<typeof SubmittedDetailsSchema>;
export type StatedPerson = Omit<Extract<SubmittedDetails, { type: 'kyc' }>, 'type' | 'idType' | 'idNumber'>;

/**
 * The details the session's last submission sealed, opened. Undefined when there are none (never submitted with
 * details, or erased); throws when the seal does not open (another key, or tampered bytes).
 */
export function openSubmittedDetails(
  vault: Pick<DocumentVault, 'open'>,
  session: Pick<VerificationSession, 'id' | 'type' | 'submittedDetails'>,
): SubmittedDetails | undefined {
  if (session.submittedDetails === null) return undefined;
  const opened = vault.open(submittedDetailsKey(session), Buffer.from(session.submittedDetails));
  return JSON.parse(opened.bytes.toString('utf8')) as SubmittedDetails;
}
