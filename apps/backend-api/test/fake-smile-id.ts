import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';

// A fake Smile ID for tests and the local start (docs/decisions.md#automated-decisions): node:http on port 0,
// speaking Smile ID's v1 protocol as this service uses it. It checks every request's signature (HMAC-SHA256 under
// the API key over timestamp + partner id + "sid_request", base64) and signs its callbacks and job status answers
// the same way, with its own code rather than the service's, so a mistake on one side is not copied to the other.
//
// Jobs: Document Verification (6) and Biometric KYC (1) by prep_upload and zip, Business Verification (7) async,
// Enhanced KYC (5, `/v1/id_verification`) and the AML Check (`/v2/aml`) answered at once, signed.
//
// Switches (`fake.switches`, changeable at any time): the result code per job, the registry's record (no photo,
// names or DOB partly or not matching), AML hits, the company's status, badly signed answers, callbacks sent at once, held until
// `sendHeldCallbacks()` or never, duplicates, a bad callback signature, an outage (503 to everything) or a rate
// limit (429), hanging
// requests (never answered until `releaseHanging()`: the service's time limit ends them), job status answers that
// say "not complete yet", and refusing jobs.

interface FakeSmileIdSwitches {
  /**
   * The result code a job gets; by default (`defaultResultCode`) 0810 (Document Verification), 1012 (Business
   * Verification and Enhanced KYC), 1020 (Biometric KYC), and for an AML Check 1030 with hits, 1031 without.
   */
  resultCode: string | ((job: FakeSmileIdJob) => string);
  /** The registry's (IPRS) record of every ID number: whether it has a photo, and how the typed details compare. */
  registry: { photo: boolean; names: string; dob: string };
  /** The date of birth on the registry's record of every ID number. */
  registryDateOfBirth: string;
  /** How many people on the AML lists each name screened matches. */
  amlHits: number;
  /** The business registry's status of every company. */
  businessStatus: string;
  /** Synchronous answers and job status answers signed with another key. */
  badAnswerSignature: boolean;
  /** `immediate`: the callback follows the job; `held`: until sendHeldCallbacks(); `never`: job status only. */
  callbacks: 'immediate' | 'held' | 'never';
  /** How many times each callback is sent (Smile ID may repeat one); concurrently when more than one. */
  callbackCopies: number;
  /** Callbacks signed with another key. */
  badCallbackSignature: boolean;
  /** Every request is answered 503. */
  outage: boolean;
  /** Every request is answered 429 (too many requests). */
  rateLimited: boolean;
  /** Every request is held unanswered (a time-out), until releaseHanging() or close(). */
  hang: boolean;
  /** Job status answers `job_complete: false`. */
  pending: boolean;
  /** Job creations are refused with this status and Smile ID code. */
  refuseJobs: { status: number; code: string } | undefined;
}

interface FakeSmileIdJob {
  kind: 'document_verification' | 'business_verification' | 'enhanced_kyc' | 'biometric_kyc' | 'aml_screening';
  smileJobId: string;
  partnerParams: { job_id: string; user_id: string; job_type: number };
  callbackUrl: string;
  /** What the upload's info.json said (Document Verification) or the request (Business Verification). */
  idInfo: Record<string, unknown>;
  /** The images received, by Smile ID image type. */
  images: Array<{ imageTypeId: number; bytes: Buffer }>;
  /** The zip arrived (Document Verification) or the request did (Business Verification): it has a result. */
  complete: boolean;
  resultCode: string | undefined;
}

export interface FakeSmileId {
  /** The v1 API: SMILE_ID_BASE_URL. */
  readonly url: string;
  readonly switches: FakeSmileIdSwitches;
  /** Jobs in the order they were created. */
  readonly jobs: FakeSmileIdJob[];
  /** Every request, with whether its signature was good (undefined where it carries none). */
  readonly requests: Array<{ method: string; path: string; signed: boolean | undefined }>;
  /** Every callback sent, with the status the service answered (0 when it could not be reached). */
  readonly callbacksSent: Array<{ jobId: string; status: number }>;
  /** Requests held by `hang`. */
  readonly hanging: number;
  /** Sends the callbacks `held` kept back. */
  sendHeldCallbacks(): Promise<void>;
  /** The callback body of a job as Smile ID would sign it (or with a bad signature). */
  callbackBody(job: FakeSmileIdJob, options?: { badSignature?: boolean; resultCode?: string }): string;
  /** Waits for every callback sent so far to be answered. */
  settled(): Promise<void>;
  /** Answers the hanging requests with 503. */
  releaseHanging(): void;
  close(): Promise<void>;
}

export interface FakeSmileIdOptions {
  partnerId: string;
  apiKey: string;
  /** Sends a callback and answers the status; fetch to the URL by default. Tests may deliver through app.inject. */
  deliver?: (url: string, body: string) => Promise<number>;
  /** Logs what it does (the local start prints it). */
  log?: (line: string) => void;
}

/** The registry's record the fake answers for every ID number (made-up data). */
export const FAKE_REGISTRY_PERSON = { fullName: 'WANJIKU AMANI KAMAU', dob: '1990-04-12', expiry: '2031-06-30' };
export const FAKE_DIRECTORS = ['AMINA WANJIRU ODHIAMBO', 'PETER KIPCHOGE MUTUA'];

/** The result code a job gets by default: each job type's "all good". */
export function defaultResultCode(job: FakeSmileIdJob, hits = 0): string {
  const codes = {
    document_verification: '0810',
    business_verification: '1012',
    enhanced_kyc: '1012',
    biometric_kyc: '1020',
    aml_screening: hits > 0 ? '1030' : '1031',
  } as const;
  return codes[job.kind];
}

export const defaultSwitches = (): FakeSmileIdSwitches => ({
  resultCode: (job) => defaultResultCode(job),
  registry: { photo: true, names: 'Exact Match', dob: 'Exact Match' },
  registryDateOfBirth: FAKE_REGISTRY_PERSON.dob,
  amlHits: 0,
  businessStatus: 'Registered',
  badAnswerSignature: false,
  callbacks: 'immediate',
  callbackCopies: 1,
  badCallbackSignature: false,
  outage: false,
  rateLimited: false,
  hang: false,
  pending: false,
  refuseJobs: undefined,
});

function sign(partnerId: string, apiKey: string, timestamp: string): string {
  const hmac = createHmac('sha256', apiKey);
  hmac.update(timestamp);
  hmac.update(partnerId);
  hmac.update('sid_request');
  return hmac.digest('base64');
}

async function fetchDelivery(url: string, body: string): Promise<number> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

export async function startFakeSmileId(options: FakeSmileIdOptions): Promise<FakeSmileId> {
  const { partnerId, apiKey } = options;
  const deliver = options.deliver ?? fetchDelivery;
  const switches = defaultSwitches();
  const jobs: FakeSmileIdJob[] = [];
  const requests: FakeSmileId['requests'] = [];
  const callbacksSent: FakeSmileId['callbacksSent'] = [];
  const held: FakeSmileIdJob[] = [];
  const hanging = new Set<ServerResponse>();
  const deliveries = new Set<Promise<void>>();
  let base = '';

  const signedBy = (body: Record<string, unknown>, partnerField: string): boolean => {
    const { timestamp, signature } = body;
    if (typeof timestamp !== 'string' || typeof signature !== 'string' || body[partnerField] !== partnerId) {
      return false;
    }
    const expected = Buffer.from(sign(partnerId, apiKey, timestamp), 'base64');
    const given = Buffer.from(signature, 'base64');
    return expected.length === given.length && timingSafeEqual(expected, given);
  };

  const resultCodeOf = (job: FakeSmileIdJob) =>
    typeof switches.resultCode === 'function'
      ? switches.resultCode(job) === defaultResultCode(job)
        ? defaultResultCode(job, switches.amlHits)
        : switches.resultCode(job)
      : switches.resultCode;

  // What the typed details compare as: the switch's answer, "Not Provided" for a match when none were typed.
  const compared = (job: FakeSmileIdJob, field: 'names' | 'dob') => {
    const typed = field === 'names' ? (job.idInfo.first_name ?? job.idInfo.last_name) : job.idInfo.dob;
    return typed === undefined && switches.registry[field] === 'Exact Match'
      ? 'Not Provided'
      : switches.registry[field];
  };

  /** What each job type's result says beyond its code (Smile ID's field names). */
  const resultDetails = (job: FakeSmileIdJob, resultCode: string): Record<string, unknown> => {
    const person = {
      FullName: FAKE_REGISTRY_PERSON.fullName,
      DOB: switches.registryDateOfBirth,
      IDNumber: job.idInfo.id_number ?? '',
      ExpirationDate: FAKE_REGISTRY_PERSON.expiry,
      Country: 'KE',
      IDType: job.idInfo.id_type,
    };
    switch (job.kind) {
      case 'document_verification':
        return {
          Actions: { Liveness_Check: 'Passed', Verify_Document: 'Passed' },
          ...person,
          IDNumber: 'FROM-DOCUMENT',
        };
      case 'enhanced_kyc':
        if (resultCode !== '1012') return { Actions: { Verify_ID_Number: 'Not Verified' } };
        return {
          Actions: {
            Verify_ID_Number: 'Verified',
            Return_Personal_Info: 'Returned',
            Names: compared(job, 'names'),
            DOB: compared(job, 'dob'),
          },
          ...person,
          Photo: switches.registry.photo ? Buffer.from('REGISTRY PHOTO').toString('base64') : '',
        };
      case 'biometric_kyc':
        return {
          Actions: {
            Liveness_Check: 'Passed',
            Selfie_To_ID_Authority_Compare: resultCode === '1022' ? 'Failed' : 'Completed',
            Verify_ID_Number: 'Verified',
            Names: compared(job, 'names'),
            DOB: compared(job, 'dob'),
          },
        };
      case 'business_verification':
        return {
          company_information: {
            legal_name: 'ACME TRADING LIMITED',
            registration_number: job.idInfo.id_number,
            status: switches.businessStatus,
            registration_date: '2015-03-02',
          },
          directors: FAKE_DIRECTORS.map((name) => ({ name, occupation: 'Director', id_number: '12345678' })),
          beneficial_owners: [{ name: FAKE_DIRECTORS[0], shareholdings: 60 }],
        };
      case 'aml_screening':
        return {
          no_of_persons_found: switches.amlHits,
          people: Array.from({ length: switches.amlHits }, (_, index) => ({
            name: `${String(job.idInfo.full_name)} ${index + 1}`,
            dates_of_birth: ['1990'],
            nationalities: ['KE'],
            pep: { political_positions: ['Member of County Assembly'] },
            sanctions: [{ source: 'FAKE SANCTIONS LIST' }],
          })),
        };
    }
  };

  const resultOf = (job: FakeSmileIdJob, resultCode = job.resultCode ?? resultCodeOf(job)) => ({
    ResultCode: resultCode,
    // Smile ID's own words, which the service must never pass on.
    ResultText: 'FAKE-PROVIDER-TEXT: internal result description',
    SmileJobID: job.smileJobId,
    PartnerParams: job.partnerParams,
    IsFinalResult: 'true',
    ...resultDetails(job, resultCode),
  });

  /** A synchronous answer or a job status: signed over its timestamp, or with another key. */
  const signedAnswer = (body: Record<string, unknown>) => {
    const timestamp = new Date().toISOString();
    const key = switches.badAnswerSignature ? `${apiKey}-not` : apiKey;
    return { ...body, timestamp, signature: sign(partnerId, key, timestamp) };
  };

  const callbackBody: FakeSmileId['callbackBody'] = (job, { badSignature = false, resultCode } = {}) => {
    const timestamp = new Date().toISOString();
    const signature = sign(partnerId, badSignature ? `${apiKey}-not` : apiKey, timestamp);
    return JSON.stringify({ ...resultOf(job, resultCode), timestamp, signature });
  };

  const sendCallback = (job: FakeSmileIdJob): Promise<void> => {
    const copies = Array.from({ length: Math.max(1, switches.callbackCopies) }, async () => {
      const status = await deliver(job.callbackUrl, callbackBody(job, { badSignature: switches.badCallbackSignature }));
      callbacksSent.push({ jobId: job.partnerParams.job_id, status });
      options.log?.(`fake Smile ID: callback for job ${job.smileJobId} (${job.resultCode}) answered ${status}`);
    });
    const all = Promise.all(copies).then(() => undefined);
    deliveries.add(all);
    void all.finally(() => deliveries.delete(all));
    return all;
  };

  const finish = (job: FakeSmileIdJob) => {
    job.complete = true;
    job.resultCode = resultCodeOf(job);
    if (switches.callbacks === 'held') held.push(job);
    // After the answer to the request that completed it, as Smile ID's processing is.
    else if (switches.callbacks === 'immediate') setImmediate(() => void sendCallback(job));
  };

  const newJob = (
    kind: FakeSmileIdJob['kind'],
    params: unknown,
    callbackUrl: unknown,
  ): FakeSmileIdJob | { refused: string } => {
    const partnerParams = params as FakeSmileIdJob['partnerParams'] | undefined;
    if (typeof partnerParams?.job_id !== 'string' || typeof partnerParams.user_id !== 'string') {
      return { refused: '2213' };
    }
    if (typeof callbackUrl !== 'string') return { refused: '2213' };
    if (jobs.some((job) => job.partnerParams.job_id === partnerParams.job_id)) return { refused: '2215' };
    const job: FakeSmileIdJob = {
      kind,
      smileJobId: String(randomInt(1_000_000_000, 9_999_999_999)).padStart(10, '0'),
      partnerParams,
      callbackUrl,
      idInfo: {},
      images: [],
      complete: false,
      resultCode: undefined,
    };
    jobs.push(job);
    return job;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const raw = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (switches.hang) {
      requests.push({ method: request.method ?? '', path, signed: undefined });
      hanging.add(response);
      return;
    }
    if (switches.outage || switches.rateLimited) {
      requests.push({ method: request.method ?? '', path, signed: undefined });
      json(switches.outage ? 503 : 429, { error: switches.outage ? 'Service unavailable' : 'Too many requests' });
      return;
    }

    if (request.method === 'PUT' && path.startsWith('/v1/uploads/')) {
      const job = jobs.find((each) => each.smileJobId === path.slice('/v1/uploads/'.length));
      const info = job === undefined ? undefined : infoOf(raw);
      const signed = info !== undefined && signedBy(info.misc, 'smile_client_id');
      requests.push({ method: 'PUT', path: '/v1/uploads/:id', signed });
      if (job === undefined || info === undefined) return json(400, { code: '0903', error: 'Zip corrupt' });
      if (!signed) return json(401, { code: '2205', error: 'You are not authorized to do that' });
      // Biometric KYC takes the typed ID (entered: true) and no ID photo; Document Verification the photo.
      const entered = info.idInfo.entered === 'true';
      if (entered !== (job.kind === 'biometric_kyc') || (entered && typeof info.idInfo.id_number !== 'string')) {
        return json(400, { code: '2213', error: 'id_info does not fit the job type' });
      }
      job.idInfo = info.idInfo;
      job.images = info.images;
      finish(job);
      response.writeHead(200).end();
      return;
    }

    const body = parseObject(raw);
    if (request.method !== 'POST' || body === undefined) return json(404, { error: 'Not found' });
    if (path === '/v1/upload') {
      const signed = signedBy(body, 'smile_client_id');
      requests.push({ method: 'POST', path, signed });
      if (!signed) return json(401, { code: '2205', error: 'You are not authorized to do that' });
      if (switches.refuseJobs !== undefined) {
        return json(switches.refuseJobs.status, { code: switches.refuseJobs.code, error: 'Refused' });
      }
      const jobType = (body.partner_params as { job_type?: unknown } | undefined)?.job_type;
      if (jobType !== 1 && jobType !== 6) return json(400, { code: '2213', error: 'Unsupported job type' });
      const job = newJob(
        jobType === 1 ? 'biometric_kyc' : 'document_verification',
        body.partner_params,
        body.callback_url,
      );
      if ('refused' in job) return json(400, { code: job.refused, error: 'Refused' });
      return json(200, {
        upload_url: `${base}/uploads/${job.smileJobId}`,
        smile_job_id: job.smileJobId,
        ref_id: `ref-${job.smileJobId}`,
        code: '2202',
      });
    }
    if (path === '/v1/async_business_verification') {
      const signed = signedBy(body, 'partner_id');
      requests.push({ method: 'POST', path, signed });
      if (!signed) return json(401, { code: '2205', error: 'You are not authorized to do that' });
      if (switches.refuseJobs !== undefined) {
        return json(switches.refuseJobs.status, { code: switches.refuseJobs.code, error: 'Refused' });
      }
      const job = newJob('business_verification', body.partner_params, body.callback_url);
      if ('refused' in job) return json(400, { code: job.refused, error: 'Refused' });
      job.idInfo = { country: body.country, id_type: body.id_type, id_number: body.id_number };
      json(200, { success: true, smile_job_id: job.smileJobId });
      finish(job);
      return;
    }
    if (path === '/v1/id_verification' || path === '/v2/aml') {
      const signed = signedBy(body, 'partner_id');
      requests.push({ method: 'POST', path, signed });
      if (!signed) return json(401, { code: '2205', error: 'You are not authorized to do that' });
      if (switches.refuseJobs !== undefined) {
        return json(switches.refuseJobs.status, { code: switches.refuseJobs.code, error: 'Refused' });
      }
      const aml = path === '/v2/aml';
      const params = aml ? { job_id: body.job_id, user_id: body.user_id, job_type: 9 } : body.partner_params;
      if (aml && typeof body.full_name !== 'string') return json(400, { code: '2213', error: 'full_name is required' });
      // An AML Check is one call per person: the same job id screens several names.
      const again = aml
        ? jobs.find((each) => each.kind === 'aml_screening' && each.partnerParams.job_id === body.job_id)
        : undefined;
      const job = again ?? newJob(aml ? 'aml_screening' : 'enhanced_kyc', params, 'none');
      if ('refused' in job) return json(400, { code: job.refused, error: 'Refused' });
      job.idInfo = aml
        ? { full_name: body.full_name, countries: body.countries, birth_year: body.birth_year }
        : {
            country: body.country,
            id_type: body.id_type,
            id_number: body.id_number,
            first_name: body.first_name,
            last_name: body.last_name,
            dob: body.dob,
          };
      job.complete = true;
      job.resultCode = resultCodeOf(job);
      return json(200, signedAnswer(resultOf(job)));
    }
    if (path === '/v1/job_status') {
      const signed = signedBy(body, 'partner_id');
      requests.push({ method: 'POST', path, signed });
      if (!signed) return json(401, { code: '2205', error: 'You are not authorized to do that' });
      const job = jobs.find(
        (each) => each.partnerParams.job_id === body.job_id && each.partnerParams.user_id === body.user_id,
      );
      if (job === undefined) return json(404, { code: '2213', error: 'Job not found' });
      const complete = job.complete && !switches.pending;
      return json(
        200,
        signedAnswer({
          job_complete: complete,
          job_success: complete && job.resultCode === resultCodeOf(job),
          code: complete ? '2302' : '2314',
          ...(complete ? { result: resultOf(job) } : { result: 'Job is not complete yet' }),
        }),
      );
    }
    return json(404, { error: 'Not found' });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  const releaseHanging = () => {
    for (const response of hanging) response.writeHead(503).end();
    hanging.clear();
  };

  return {
    url: base,
    switches,
    jobs,
    requests,
    callbacksSent,
    get hanging() {
      return hanging.size;
    },
    sendHeldCallbacks: async () => {
      const sending = held.splice(0).map(sendCallback);
      await Promise.all(sending);
    },
    callbackBody,
    settled: async () => {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
    releaseHanging,
    close: async () => {
      releaseHanging();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The info.json of an uploaded zip: its signed misc_information, id_info and base64 images. */
function infoOf(
  zip: Buffer,
): { misc: Record<string, unknown>; idInfo: Record<string, unknown>; images: FakeSmileIdJob['images'] } | undefined {
  try {
    const files = unzipSync(new Uint8Array(zip));
    const infoFile = files['info.json'];
    if (infoFile === undefined) return undefined;
    const info = JSON.parse(Buffer.from(infoFile).toString('utf8')) as {
      misc_information?: Record<string, unknown>;
      id_info?: Record<string, unknown>;
      images?: Array<{ image_type_id: number; image: string }>;
    };
    if (info.misc_information === undefined) return undefined;
    return {
      misc: info.misc_information,
      idInfo: info.id_info ?? {},
      images: (info.images ?? []).map(({ image_type_id, image }) => ({
        imageTypeId: image_type_id,
        bytes: Buffer.from(image, 'base64'),
      })),
    };
  } catch {
    return undefined;
  }
}

/** Time limits a test ends by hand: each call's signal aborts with a TimeoutError when `expireAll()` is called. */
export function manualTimeouts(): { timeout: (ms: number) => AbortSignal; expireAll: () => number } {
  const pending = new Set<AbortController>();
  return {
    timeout: () => {
      const controller = new AbortController();
      pending.add(controller);
      return controller.signal;
    },
    expireAll: () => {
      const count = pending.size;
      for (const controller of pending) controller.abort(new DOMException('The call timed out', 'TimeoutError'));
      pending.clear();
      return count;
    },
  };
}
