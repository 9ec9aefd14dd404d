import { zipSync } from 'fflate';
import { isSmileIdSignature, type SmileIdCredentials, signedNow } from './signature.js';

// The Smile ID port and its HTTP adapter: Smile ID's documented v1 REST protocol (docs/decisions.md#automated-decisions).
// The official Node SDK (smile-identity-core) is not used for the calls: it rewrites every server address to
// https:// (so it cannot reach a local fake), sets no time limit on any request (a provider that hangs would hang
// the job loop), and polls on its own timers.

/** Smile ID's ID types for the documents a kyc session takes (Kenya). */
const SMILE_ID_COUNTRY = 'KE';
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
interface DocumentVerificationJob extends JobIdentity {
  kind: 'document_verification';
  idType: SmileIdDocumentType;
  /** JPEG or PNG bytes. */
  selfie: Buffer;
  idFront: Buffer;
  idBack: Buffer | undefined;
}

/** Business Verification (job type 7): the registration number checked against the business registry. */
interface BusinessVerificationJob extends JobIdentity {
  kind: 'business_verification';
  registrationNumber: string;
}

export type SmileIdJob = DocumentVerificationJob | BusinessVerificationJob;

const JOB_TYPES = { document_verification: 6, business_verification: 7 } as const;

/** A job's result as Smile ID reports it, in a callback or a job status answer. */
export interface SmileIdResult {
  resultCode: string;
  smileJobId: string | undefined;
  /** `PartnerParams.job_id`: our id of the job. */
  jobId: string | undefined;
}

type SmileIdJobStatus = { complete: false } | { complete: true; result: SmileIdResult };

/** The operations the decision adapter needs of Smile ID. */
export interface SmileIdClient {
  /** Gives Smile ID the job; resolves with Smile ID's id of it when it tells one. */
  createJob(job: SmileIdJob): Promise<{ smileJobId: string | undefined }>;
  /** Asks for the job's result (the answer's signature is checked). */
  jobStatus(job: { jobId: string; userId: string }): Promise<SmileIdJobStatus>;
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
export type SmileIdCall = 'prep_upload' | 'upload' | 'business_verification' | 'job_status';
/** How a call failed. */
export type SmileIdCallFailure = SmileIdFailureKind | 'refused';

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

const SOURCE = { source_sdk: 'rest_api', source_sdk_version: '1.0.0' } as const;
const ZIP_NAME = 'job.zip';

/** The HTTP adapter of the port. */
export function createSmileIdHttpClient(options: SmileIdHttpOptions): SmileIdClient {
  const { partnerId, now } = options;
  const credentials: SmileIdCredentials = { partnerId, apiKey: options.apiKey };
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

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
      const response = await fetch(`${baseUrl}${path}`, {
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

  const partnerParams = (job: SmileIdJob) => ({
    user_id: job.userId,
    job_id: job.jobId,
    job_type: JOB_TYPES[job.kind],
  });

  const documentVerification = async (job: DocumentVerificationJob) => {
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
      id_info: { country: SMILE_ID_COUNTRY, id_type: job.idType, entered: 'false' },
      // Base64 images in info.json (image types 2, 3 and 7): the selfie, the ID's front and its back.
      images: [
        { image_type_id: 2, image: job.selfie.toString('base64'), file_name: '' },
        { image_type_id: 3, image: job.idFront.toString('base64'), file_name: '' },
        ...(job.idBack === undefined
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

  return {
    createJob: (job) => (job.kind === 'document_verification' ? documentVerification(job) : businessVerification(job)),
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

/** The result fields of a callback body or a job status's `result`; undefined without a result code. */
export function resultOf(value: unknown): SmileIdResult | undefined {
  if (!isRecord(value) || typeof value.ResultCode !== 'string') return undefined;
  const partnerParams = isRecord(value.PartnerParams) ? value.PartnerParams : {};
  return {
    resultCode: value.ResultCode,
    smileJobId: typeof value.SmileJobID === 'string' ? value.SmileJobID : undefined,
    jobId: typeof partnerParams.job_id === 'string' ? partnerParams.job_id : undefined,
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
