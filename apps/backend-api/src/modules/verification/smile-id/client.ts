import { zipSync } from 'fflate';
import { amlScreening, enhancedKyc, type PartnerParams, typedNames } from './client-synchronous.js';
import {
  type BiometricKycJob,
  type BusinessVerificationJob,
  type DocumentVerificationJob,
  isRecord,
  JOB_TYPES,
  resultOf,
  SMILE_ID_COUNTRY,
  type SmileIdCall,
  type SmileIdCallFailure,
  type SmileIdJob,
  SmileIdRefusedError,
  type SmileIdResult,
  SmileIdUnavailableError,
  SOURCE,
} from './protocol.js';
import { isSmileIdSignature, type SmileIdCredentials, signedNow } from './signature.js';

// The Smile ID port and its HTTP adapter: Smile ID's documented v1 REST protocol (docs/decisions.md#automated-decisions).
// The official Node SDK (smile-identity-core) is not used for the calls: it rewrites every server address to
// https:// (so it cannot reach a local fake), sets no time limit on any request (a provider that hangs would hang
// the job loop), and polls on its own timers.

export {
  isRecord,
  resultOf,
  type SmileIdDocumentType,
  type SmileIdJob,
  SmileIdRefusedError,
  type SmileIdResult,
  SmileIdUnavailableError,
  type TypedPerson,
} from './protocol.js';

type SmileIdJobStatus = { complete: false } | { complete: true; result: SmileIdResult };

/** The operations the decision adapter needs of Smile ID. */
export interface SmileIdClient {
  /**
   * Gives Smile ID the job; resolves with Smile ID's id of it when it tells one, and with the results at once for
   * the synchronous jobs (Enhanced KYC: one; AML: one per person screened), their signatures checked.
   */
  createJob(job: SmileIdJob): Promise<{ smileJobId: string | undefined; results?: SmileIdResult[] }>;
  /** Asks for the job's result (the answer's signature is checked). */
  jobStatus(job: { jobId: string; userId: string }): Promise<SmileIdJobStatus>;
}

export interface SmileIdHttpOptions extends SmileIdCredentials {
  /** The v1 API, without a trailing slash. */
  baseUrl: string;
  /** Each call (connect, send, read the answer) must finish within this. */
  timeoutMs: number;
  /** Starts a call's time limit; AbortSignal.timeout by default. Tests decide when an unanswered call times out. */
  timeout?: (ms: number) => AbortSignal;
  now: () => Date;
  /** Told of every call when it ends: which, how it failed (undefined: it did not), how long it took. */
  observe?: (call: SmileIdCall, failure: SmileIdCallFailure | undefined, seconds: number) => void;
  /** Whether the upload URL Smile ID gives may be plain http (a local fake); else it must be https. */
  allowHttp: boolean;
}

const ZIP_NAME = 'job.zip';

/** The HTTP adapter of the port. */
export function createSmileIdHttpClient(options: SmileIdHttpOptions): SmileIdClient {
  const { partnerId, now } = options;
  const credentials: SmileIdCredentials = { partnerId, apiKey: options.apiKey };
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // SMILE_ID_BASE_URL is the v1 API; the AML Check is v2, its sibling.
  const urlOf = (path: string) =>
    path.startsWith('/v2/') ? `${baseUrl.replace(/\/v1$/, '')}${path}` : `${baseUrl}${path}`;

  const call = async <T>(name: SmileIdCall, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const started = performance.now();
    let failure: SmileIdCallFailure | undefined;
    try {
      return await work((options.timeout ?? AbortSignal.timeout)(options.timeoutMs));
    } catch (error) {
      const failed = asSmileIdError(error, options.timeoutMs);
      failure = failed instanceof SmileIdRefusedError ? 'refused' : failed.kind;
      throw failed;
    } finally {
      options.observe?.(name, failure, (performance.now() - started) / 1000);
    }
  };

  const postJson = (name: SmileIdCall, path: string, body: Record<string, unknown>) =>
    call(name, async (signal) => {
      const response = await fetch(urlOf(path), {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal,
      });
      const answer = parseJson(await response.text());
      if (!response.ok) throw failureOf(response.status, answer);
      return answer;
    });

  const partnerParams = (job: SmileIdJob): PartnerParams => ({
    user_id: job.userId,
    job_id: job.jobId,
    job_type: JOB_TYPES[job.kind],
  });

  const uploadJob = async (job: DocumentVerificationJob | BiometricKycJob) => {
    const signed = signedNow(credentials, now());
    const prepared = await postJson('prep_upload', '/upload', {
      callback_url: job.callbackUrl,
      file_name: ZIP_NAME,
      model_parameters: {},
      partner_params: partnerParams(job),
      smile_client_id: partnerId,
      ...signed,
      ...SOURCE,
    });
    const uploadUrl = isRecord(prepared) ? prepared.upload_url : undefined;
    if (typeof uploadUrl !== 'string' || !isAllowedUploadUrl(uploadUrl, options.allowHttp)) {
      throw new SmileIdUnavailableError('unexpected_answer', 'prep_upload answered without a usable upload_url');
    }
    const info = {
      package_information: { apiVersion: { buildNumber: 0, majorVersion: 2, minorVersion: 0 }, language: 'typescript' },
      misc_information: {
        ...signed,
        retry: 'false',
        partner_params: partnerParams(job),
        file_name: ZIP_NAME,
        smile_client_id: partnerId,
        callback_url: job.callbackUrl,
      },
      id_info:
        job.kind === 'biometric_kyc'
          ? enteredIdInfo(job)
          : { country: SMILE_ID_COUNTRY, id_type: job.idType, entered: 'false' },
      // Base64 images in info.json (image types 2, 3 and 7): the selfie, the ID's front and its back.
      images: [
        { image_type_id: 2, image: job.selfie.toString('base64'), file_name: '' },
        ...(job.kind === 'biometric_kyc'
          ? []
          : [{ image_type_id: 3, image: job.idFront.toString('base64'), file_name: '' }]),
        ...(job.kind === 'biometric_kyc' || job.idBack === undefined
          ? []
          : [{ image_type_id: 7, image: job.idBack.toString('base64'), file_name: '' }]),
      ],
      server_information: prepared,
    };
    const zip = zipSync({ 'info.json': new TextEncoder().encode(JSON.stringify(info)) });
    await call('upload', async (signal) => {
      const response = await fetch(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/zip' },
        body: zip,
        redirect: 'error',
        signal,
      });
      await response.arrayBuffer();
      if (!response.ok) throw failureOf(response.status, undefined);
    });
    const smileJobId = isRecord(prepared) ? prepared.smile_job_id : undefined;
    return { smileJobId: typeof smileJobId === 'string' ? smileJobId : undefined };
  };

  const businessVerification = async (job: BusinessVerificationJob) => {
    const answer = await postJson('business_verification', '/async_business_verification', {
      partner_id: partnerId,
      partner_params: partnerParams(job),
      country: SMILE_ID_COUNTRY,
      id_type: 'BUSINESS_REGISTRATION',
      id_number: job.registrationNumber,
      callback_url: job.callbackUrl,
      ...signedNow(credentials, now()),
      ...SOURCE,
    });
    const smileJobId = isRecord(answer) ? answer.smile_job_id : undefined;
    return { smileJobId: typeof smileJobId === 'string' ? smileJobId : undefined };
  };

  const synchronous = { credentials, now, postJson, partnerParams };
  return {
    createJob: (job) => {
      switch (job.kind) {
        case 'document_verification':
        case 'biometric_kyc':
          return uploadJob(job);
        case 'business_verification':
          return businessVerification(job);
        case 'enhanced_kyc':
          return enhancedKyc(synchronous, job);
        case 'aml_screening':
          return amlScreening(synchronous, job);
      }
    },
    jobStatus: async ({ jobId, userId }) => {
      const answer = await postJson('job_status', '/job_status', {
        partner_id: partnerId,
        user_id: userId,
        job_id: jobId,
        history: false,
        image_links: false,
        ...signedNow(credentials, now()),
      });
      if (!isRecord(answer) || !isSmileIdSignature(credentials, answer.timestamp, answer.signature)) {
        throw new SmileIdUnavailableError('bad_signature', 'the job status answer is not signed with our API key');
      }
      if (answer.job_complete !== true) return { complete: false };
      const result = resultOf(answer.result);
      if (result === undefined) {
        throw new SmileIdUnavailableError('unexpected_answer', 'a complete job status without a result code');
      }
      return { complete: true, result };
    },
  };
}

/** Biometric KYC's `id_info`: what the person typed, `entered: true` (Smile ID looks the number up itself). */
function enteredIdInfo(job: BiometricKycJob): Record<string, string> {
  return {
    country: SMILE_ID_COUNTRY,
    id_type: job.idType,
    id_number: job.idNumber,
    entered: 'true',
    ...typedNames(job),
  };
}

function isAllowedUploadUrl(url: string, allowHttp: boolean): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || (allowHttp && protocol === 'http:');
  } catch {
    return false;
  }
}

function failureOf(status: number, answer: unknown): Error {
  const code = isRecord(answer) && typeof answer.code === 'string' ? answer.code : undefined;
  if (status === 401 || status === 403) return new SmileIdUnavailableError('credentials_refused', `answered ${status}`);
  if (status === 429) return new SmileIdUnavailableError('rate_limited', 'answered 429');
  if (status >= 500) return new SmileIdUnavailableError('server_error', `answered ${status}`);
  if (status >= 400) return new SmileIdRefusedError(status, code);
  return new SmileIdUnavailableError('unexpected_answer', `answered ${status}`);
}

function asSmileIdError(error: unknown, timeoutMs: number): SmileIdUnavailableError | SmileIdRefusedError {
  if (error instanceof SmileIdUnavailableError || error instanceof SmileIdRefusedError) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new SmileIdUnavailableError('timeout', `no answer within ${timeoutMs} ms`, { cause: error });
  }
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new SmileIdUnavailableError('unreachable', 'could not be reached', { cause: error });
  }
  return new SmileIdUnavailableError('connection_lost', 'the connection broke before an answer came', { cause: error });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
