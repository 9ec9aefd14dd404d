import {
  type AmlScreeningJob,
  type EnhancedKycJob,
  isRecord,
  resultOf,
  SMILE_ID_COUNTRY,
  type SmileIdCall,
  type SmileIdResult,
  SmileIdUnavailableError,
  SOURCE,
  type TypedPerson,
} from './protocol.js';
import { isSmileIdSignature, type SmileIdCredentials, signedNow } from './signature.js';

// Smile ID's synchronous jobs (docs/decisions.md#smile-ids-protocol): Enhanced KYC (`POST /v1/id_verification`,
// job type 5) and the AML Check (`POST /v2/aml`, one call per person). Each answers the result itself, signed like
// a callback; an answer whose signature is not ours is not used.

export interface PartnerParams {
  user_id: string;
  job_id: string;
  job_type: number;
}

interface Synchronous {
  credentials: SmileIdCredentials;
  now: () => Date;
  postJson: (name: SmileIdCall, path: string, body: Record<string, unknown>) => Promise<unknown>;
  partnerParams: (job: EnhancedKycJob | AmlScreeningJob) => PartnerParams;
}

/** The typed names and date of birth Smile ID compares with the registry's, only those the person gave. */
export function typedNames(person: TypedPerson): Record<string, string> {
  return {
    ...(person.firstName === undefined ? {} : { first_name: person.firstName }),
    ...(person.middleName === undefined ? {} : { middle_name: person.middleName }),
    ...(person.lastName === undefined ? {} : { last_name: person.lastName }),
    ...(person.dateOfBirth === undefined ? {} : { dob: person.dateOfBirth }),
  };
}

export async function enhancedKyc(
  { credentials, now, postJson, partnerParams }: Synchronous,
  job: EnhancedKycJob,
): Promise<{ smileJobId: string | undefined; results: SmileIdResult[] }> {
  const answer = await postJson('enhanced_kyc', '/id_verification', {
    partner_id: credentials.partnerId,
    partner_params: partnerParams(job),
    country: SMILE_ID_COUNTRY,
    id_type: job.idType,
    id_number: job.idNumber,
    ...typedNames(job),
    ...signedNow(credentials, now()),
    ...SOURCE,
  });
  const result = signedResult(credentials, answer, 'Enhanced KYC');
  return { smileJobId: result.smileJobId, results: [result] };
}

/** Screens each person in turn; the job's results are all of them, or none (a failed call retries the job). */
export async function amlScreening(
  { credentials, now, postJson, partnerParams }: Synchronous,
  job: AmlScreeningJob,
): Promise<{ smileJobId: string | undefined; results: SmileIdResult[] }> {
  const results: SmileIdResult[] = [];
  for (const person of job.people) {
    const answer = await postJson('aml_screening', '/v2/aml', {
      partner_id: credentials.partnerId,
      job_id: job.jobId,
      user_id: job.userId,
      partner_params: partnerParams(job),
      full_name: person.fullName,
      countries: [SMILE_ID_COUNTRY],
      ...(person.birthYear === undefined ? {} : { birth_year: person.birthYear }),
      search_existing_user: false,
      ...signedNow(credentials, now()),
    });
    results.push(signedResult(credentials, answer, 'AML'));
  }
  return { smileJobId: results[0]?.smileJobId, results };
}

function signedResult(credentials: SmileIdCredentials, answer: unknown, what: string): SmileIdResult {
  if (!isRecord(answer) || !isSmileIdSignature(credentials, answer.timestamp, answer.signature)) {
    throw new SmileIdUnavailableError('bad_signature', `the ${what} answer is not signed with our API key`);
  }
  const result = resultOf(answer);
  if (result === undefined) throw new SmileIdUnavailableError('unexpected_answer', `an ${what} answer without a code`);
  return result;
}
