import type { VerificationType } from '@platform/db';

export const requiredDocumentKinds = [
  'national_id_or_passport',
  'selfie',
  'certificate_of_incorporation',
  'cr12',
  'kra_pin_certificate',
  'director_ids',
] as const;
export type RequiredDocument = (typeof requiredDocumentKinds)[number];

/**
 * What the end user is asked for. A person (kyc) proves who they are; a business (kyb) proves it is registered
 * in Kenya (certificate, CR12 listing its directors and shareholders, KRA PIN) and who runs it.
 */
const requiredDocumentsByType: Readonly<Record<VerificationType, readonly RequiredDocument[]>> = {
  kyc: ['national_id_or_passport', 'selfie'],
  kyb: ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_ids'],
};

// Shared by backend-api's sessions and main-api's activation sessions. The hosted page names each document in the catalog of @platform/templates (`requiredDocument.<name>`).

export function requiredDocumentsFor(type: VerificationType): RequiredDocument[] {
  return [...requiredDocumentsByType[type]];
}
