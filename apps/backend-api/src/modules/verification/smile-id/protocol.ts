// Smile ID's protocol as this service speaks it (docs/decisions.md#smile-ids-protocol): the jobs, their results,
// how a call fails. The HTTP adapter (client.ts, client-synchronous.ts) and the fake's tests share these words.

/** Smile ID's ID types for the documents a kyc session takes (Kenya). */
export const SMILE_ID_COUNTRY = 'KE';
export type SmileIdDocumentType = 'NATIONAL_ID' | 'PASSPORT' | 'ALIEN_CARD';

interface JobIdentity {
  /** Our id of the job (`partner_params.job_id`): random, known only to Smile ID and to this service. */
  jobId: string;
  /** `partner_params.user_id`. */
  userId: string;
  /** Where Smile ID sends the result. */
  callbackUrl: string;
}

/** Document Verification (job type 6) with the person's selfie: the ID document checked and matched to the face. */
export interface DocumentVerificationJob extends JobIdentity {
  kind: 'document_verification';
  idType: SmileIdDocumentType;
  /** JPEG or PNG bytes. */
  selfie: Buffer;
  idFront: Buffer;
  idBack: Buffer | undefined;
}

/** Business Verification (job type 7): the registration number checked against the business registry. */
export interface BusinessVerificationJob extends JobIdentity {
  kind: 'business_verification';
  registrationNumber: string;
}

/** What the person typed, sent to Smile ID for the registry's comparison when present. */
export interface TypedPerson {
  idType: SmileIdDocumentType;
  idNumber: string;
  firstName: string | undefined;
  middleName: string | undefined;
  lastName: string | undefined;
  /** `YYYY-MM-DD`. */
  dateOfBirth: string | undefined;
}

/** Enhanced KYC (job type 5, synchronous): the ID number looked up in the registry (IPRS), names and DOB compared. */
export interface EnhancedKycJob extends JobIdentity, TypedPerson {
  kind: 'enhanced_kyc';
}

/** Biometric KYC (job type 1): the selfie matched with the registry's photo of the ID number, with liveness. */
export interface BiometricKycJob extends JobIdentity, TypedPerson {
  kind: 'biometric_kyc';
  selfie: Buffer;
}

/** AML Check (synchronous, one call per person): sanctions, PEP and adverse media screening of each name. */
export interface AmlScreeningJob extends JobIdentity {
  kind: 'aml_screening';
  people: ReadonlyArray<{ fullName: string; birthYear: string | undefined }>;
}

export type SmileIdJob =
  | DocumentVerificationJob
  | BusinessVerificationJob
  | EnhancedKycJob
  | BiometricKycJob
  | AmlScreeningJob;

export const JOB_TYPES = {
  biometric_kyc: 1,
  enhanced_kyc: 5,
  document_verification: 6,
  business_verification: 7,
  aml_screening: 9,
} as const;

/** A job's result as Smile ID reports it, in a callback, a job status answer or a synchronous answer. */
export interface SmileIdResult {
  resultCode: string;
  smileJobId: string | undefined;
  /** `PartnerParams.job_id`: our id of the job. */
  jobId: string | undefined;
  /** The whole signed body, which the job's checks read (result-codes.ts); never logged or stored as such. */
  body: Readonly<Record<string, unknown>>;
}

export type SmileIdFailureKind =
  | 'timeout'
  | 'unreachable'
  | 'connection_lost'
  | 'server_error'
  | 'rate_limited'
  | 'credentials_refused'
  | 'bad_signature'
  | 'unexpected_answer';

/** Smile ID could not be asked, or did not answer usably: worth trying again later. */
export class SmileIdUnavailableError extends Error {
  override readonly name = 'SmileIdUnavailableError';
  constructor(
    readonly kind: SmileIdFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Smile ID: ${message}`, options);
  }
}

/** Smile ID refused the job as sent (a 4xx with its code): sending it again would be refused again. */
export class SmileIdRefusedError extends Error {
  override readonly name = 'SmileIdRefusedError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(`Smile ID refused the job (${status}${code === undefined ? '' : `, code ${code}`})`);
  }
}

/** Which call, for the latency and error metrics. */
export type SmileIdCall =
  | 'prep_upload'
  | 'upload'
  | 'business_verification'
  | 'enhanced_kyc'
  | 'aml_screening'
  | 'job_status';
/** How a call failed. */
export type SmileIdCallFailure = SmileIdFailureKind | 'refused';

export const SOURCE = { source_sdk: 'rest_api', source_sdk_version: '1.0.0' } as const;

/** The result fields of a callback body or a job status's `result`; undefined without a result code. */
export function resultOf(value: unknown): SmileIdResult | undefined {
  if (!isRecord(value) || typeof value.ResultCode !== 'string') return undefined;
  const partnerParams = isRecord(value.PartnerParams) ? value.PartnerParams : {};
  return {
    resultCode: value.ResultCode,
    smileJobId: typeof value.SmileJobID === 'string' ? value.SmileJobID : undefined,
    jobId: typeof partnerParams.job_id === 'string' ? partnerParams.job_id : undefined,
    body: value,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
