import type { IdType } from '@platform/db';

// What a verification verified (docs/decisions.md#verified-data), as Stripe's `verified_outputs`: kept sealed on the
// session (sealed under verifiedOutputsKey), written with its verified decision by whatever decided it (backend-api's
// decision sources, main-api's reviewers), read only through the explicit expansion.

/** A person as the registry or the document confirmed them. Dates are `YYYY-MM-DD`; nationality ISO 3166 alpha-3. */
export interface VerifiedPerson {
  /** Null when neither a registry, a document nor the person gave one (a submission by API without names). */
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  idType: IdType;
  idNumber: string;
  documentExpiry: string | null;
  nationality: string | null;
  /** Which photo the selfie was matched with (a fifth to a third of registry records carry none). */
  faceComparedWith: 'registry_photo' | 'id_document_photo' | null;
}

/** A director or owner as the registry names them, with the result of their own verification when one was made. */
export interface VerifiedBusinessPerson {
  name: string;
  role: string | null;
  /** Their own kyc session (directors verify by link: docs/decisions.md#directors) and its status. */
  sessionId: string | null;
  status: string | null;
  /** Beneficial owners: the share held, in percent, when the registry says. */
  shareholdingPercent?: number | null;
}

export interface VerifiedBusiness {
  /** The registry's name, else the name stated; null when there was neither. */
  registeredName: string | null;
  registrationNumber: string;
  /** The registry's status: `registered`, `dissolved`, ... */
  status: string;
  registrationDate: string | null;
  directors: VerifiedBusinessPerson[];
  beneficialOwners: VerifiedBusinessPerson[];
}

export type VerifiedOutputs = { type: 'kyc'; person: VerifiedPerson } | { type: 'kyb'; business: VerifiedBusiness };
