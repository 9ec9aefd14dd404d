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

/** How the hosted page names each document to the end user. */
const requiredDocumentLabels: Readonly<Record<RequiredDocument, string>> = {
  national_id_or_passport: 'National ID card or passport',
  selfie: 'A selfie: a clear photo of your face',
  certificate_of_incorporation: 'Certificate of incorporation',
  cr12: 'CR12: the official list of directors and shareholders',
  kra_pin_certificate: 'KRA PIN certificate of the business',
  director_ids: 'National ID card or passport of each director',
};

export function requiredDocumentsFor(type: VerificationType): RequiredDocument[] {
  return [...requiredDocumentsByType[type]];
}

export function requiredDocumentLabel(document: string): string {
  return (requiredDocumentLabels as Record<string, string>)[document] ?? document;
}
