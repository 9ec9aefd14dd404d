import { verificationProviderJobs, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { compareRoutesWithOpenApi } from '@platform/http';
import { captureLogs } from '@platform/http/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import { multipart, pngImage, temporaryVault, uploadDocument } from '../../../../test/document-fixtures.js';
import { type FakeSmileId, manualTimeouts, startFakeSmileId } from '../../../../test/fake-smile-id.js';
import {
  createdSessionId,
  eventTypesOf,
  fundWallet,
  holdMovements,
  truncateVerificationData,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import { formTokenFor } from '../hosted-page/form-token.js';

// Smile ID deciding sessions (docs/decisions.md#automated-decisions), end to end against the fake Smile ID
// (test/fake-smile-id.ts), whose switches play a bad signature, duplicates, a missing callback, an outage and
// time-outs. The app's job loop runs only when asked (`smileIdJobs.runNow()`), on the test's clock.

const PARTNER_ID = '2468';
const API_KEY = 'fake-smile-id-api-key-0123456789';
const MINUTE = 60_000;
const RECONCILE_AFTER_MS = 5 * MINUTE;
const FALLBACK_AFTER_MS = 60 * MINUTE;
const ID_NUMBER = '27183945';
const REGISTRATION_NUMBER = 'PVT-AB12CD3';
const PAGE_SECRET = 'a-hosted-page-secret-of-at-least-32-characters';

const logs = captureLogs();
const database = useTestDatabase({ maxConnections: 12 });
const clock = testClock();
const timeouts = manualTimeouts();
let app: BackendApp;
let fake: FakeSmileId;
let vault: DocumentVault;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let selfie: Buffer;
let idFront: Buffer;

beforeAll(async () => {
  ({ vault, remove: removeFolder } = await temporaryVault());
  fake = await startFakeSmileId({
    partnerId: PARTNER_ID,
    apiKey: API_KEY,
    // Callbacks reach the app through inject, at the path of the URL the service gave Smile ID.
    deliver: async (url, body) => {
      const { pathname, search } = new URL(url);
      const response = await app.inject({
        method: 'POST',
        url: `${pathname}${search}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      return response.statusCode;
    },
  });
  app = await buildTestApp(database.handle, {
    now: clock.now,
    vault,
    logger: logs.logger,
    smileIdTimeout: timeouts.timeout,
    env: {
      VERIFICATION_DECISIONS: 'live:kyc=smile_id,live:kyb=smile_id',
      SMILE_ID_PARTNER_ID: PARTNER_ID,
      SMILE_ID_API_KEY: API_KEY,
      SMILE_ID_BASE_URL: fake.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      VERIFY_URL: 'https://verify.example.test',
      HOSTED_PAGE_SECRET: PAGE_SECRET,
      SMILE_ID_RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
      SMILE_ID_FALLBACK_AFTER_MS: String(FALLBACK_AFTER_MS),
      SMILE_ID_JOB_INTERVAL_MS: '0',
    },
  });
  selfie = await pngImage(600, 800, 'SELFIE');
  idFront = await pngImage(800, 600, 'ID FRONT');
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  await removeFolder?.();
});
beforeEach(async () => {
  clock.set(TEST_START);
  Object.assign(fake.switches, {
    resultCode: (job: { kind: string }) => (job.kind === 'business_verification' ? '1012' : '0810'),
    callbacks: 'immediate',
    callbackCopies: 1,
    badCallbackSignature: false,
    outage: false,
    rateLimited: false,
    hang: false,
    pending: false,
    refuseJobs: undefined,
  });
  await truncateVerificationData(database.db);
  [acme] = await replaceOrganizations(database.db, 'Acme');
  await fundWallet(database.db, acme.id, 'live', 10_000);
});

const jobs = () => app.smileIdJobs ?? expect.unreachable('Smile ID is configured');

/** A live session with its documents and details, submitted through the API (which kicks the job loop). */
async function submittedSession(type: 'kyc' | 'kyb' = 'kyc'): Promise<string> {
  const sessionId = await createdSessionId(app, acme.liveKey, { type, externalEndUserId: `person-${type}` });
  const documents: Array<[string, Buffer]> =
    type === 'kyc'
      ? [
          ['id_document_front', idFront],
          ['id_document_back', idFront],
          ['selfie', selfie],
        ]
      : [
          ['certificate_of_incorporation', idFront],
          ['cr12', idFront],
          ['kra_pin_certificate', idFront],
          ['director_id', idFront],
        ];
  for (const [kind, bytes] of documents) {
    expect((await uploadDocument(app, acme.liveKey, sessionId, kind, bytes)).statusCode).toBe(201);
  }
  const details =
    type === 'kyc' ? { idType: 'national_id', idNumber: ID_NUMBER } : { registrationNumber: REGISTRATION_NUMBER };
  const submitted = await app.inject({
    method: 'POST',
    url: `/v1/verify/sessions/${sessionId}/submit`,
    headers: { 'x-service-api-key': acme.liveKey },
    payload: details,
  });
  expect(submitted.statusCode).toBe(200);
  expect(submitted.json().data.status).toBe('processing');
  return sessionId;
}

/** Runs the job loop (joining the run the submission kicked) and waits for the callbacks it caused. */
async function settle(): Promise<void> {
  await jobs().runNow();
  await fake.settled();
}

async function sessionRow(sessionId: string) {
  const [row] = await database.db.select().from(verificationSessions).where(eq(verificationSessions.id, sessionId));
  return row ?? expect.unreachable('the session exists');
}

async function jobsOf(sessionId: string) {
  return database.db
    .select()
    .from(verificationProviderJobs)
    .where(eq(verificationProviderJobs.sessionId, sessionId))
    .orderBy(verificationProviderJobs.createdAt);
}

async function handOversOf(sessionId: string) {
  const rows = await database.db
    .select()
    .from(verificationSessionTransitions)
    .where(eq(verificationSessionTransitions.sessionId, sessionId));
  return rows.filter((row) => row.fromStatus === 'processing' && row.toStatus === 'processing');
}

function postCallback(body: string) {
  return app.inject({
    method: 'POST',
    url: '/v1/providers/smile-id/callback',
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
}

async function metricsText(): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics' })).body;
}

function metricValue(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((each) => each.startsWith(`${name}{`) && each.includes(labels));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('a session Smile ID decides', () => {
  it('sends the ID photos, the selfie and the ID type after the submission, and is verified by the signed callback', async () => {
    const jobsBefore = fake.jobs.length;
    const sessionId = await submittedSession('kyc');
    // The submission itself starts the job (the loop has no timer here).
    await eventually(() => fake.jobs.length === jobsBefore + 1, { what: 'the job the submission kicked' });
    await settle();

    const [job] = fake.jobs.slice(jobsBefore);
    expect(fake.jobs).toHaveLength(jobsBefore + 1);
    expect(job?.kind).toBe('document_verification');
    expect(job?.partnerParams.job_type).toBe(6);
    expect(job?.idInfo).toMatchObject({ country: 'KE', id_type: 'NATIONAL_ID' });
    expect(job?.images.map((image) => image.imageTypeId).sort()).toEqual([2, 3, 7]);
    expect(
      job?.images
        .find((image) => image.imageTypeId === 2)
        ?.bytes.subarray(0, 4)
        .toString('hex'),
    ).toBe('89504e47');
    // The callback goes to this service's route, at VERIFY_URL; the session id never leaves the service.
    expect(job?.callbackUrl).toBe('https://verify.example.test/v1/providers/smile-id/callback');
    expect(JSON.stringify(job?.partnerParams)).not.toContain(sessionId);
    expect(fake.requests.every((request) => request.signed !== false)).toBe(true);

    const session = await sessionRow(sessionId);
    expect(session.status).toBe('verified');
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    // Written at the same moment of the test's clock: compared as a set.
    expect((await eventTypesOf(database.db, sessionId)).sort()).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.verified',
    ]);
    const [row] = await jobsOf(sessionId);
    expect(row).toMatchObject({ status: 'completed', resultCode: '0810', providerJobId: job?.smileJobId });
    const metrics = await metricsText();
    expect(metricValue(metrics, 'verification_provider_callbacks_total', 'outcome="verified"')).toBe(1);
    expect(
      metricValue(metrics, 'verification_decision_duration_seconds_count', 'outcome="verified",source="smile_id"'),
    ).toBe(1);
    expect(
      metricValue(metrics, 'verification_provider_request_duration_seconds_count', 'call="prep_upload",outcome="ok"'),
    ).toBe(1);
  });

  it('is sent to Smile ID when the person submits on the hosted page too', async () => {
    const sessionId = await createdSessionId(app, acme.liveKey, { type: 'kyc', externalEndUserId: 'person-page' });
    const token = formTokenFor(PAGE_SECRET, sessionId);
    const form = (fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/session/${sessionId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token, ...fields }).toString(),
      });
    // The consent notice names Smile ID as a sub-processor, in the page's language.
    const notice = await app.inject({ method: 'GET', url: `/session/${sessionId}` });
    expect(notice.body).toContain('Smile ID (Smile Identity) checks your ID document and selfie');
    const sw = await app.inject({ method: 'GET', url: `/session/${sessionId}?lang=sw` });
    expect(sw.body).toContain('Smile ID (Smile Identity) hukagua hati yako ya utambulisho');
    expect((await form({ action: 'agree' })).statusCode).toBe(303);
    const image = (field: string, data: Buffer) => ({
      field,
      filename: `${field}.png`,
      contentType: 'image/png',
      data,
    });
    const { payload, headers } = multipart([
      { field: 'token', data: token },
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'AK1234567' },
      image('id_document_front', idFront),
      image('selfie', selfie),
    ]);
    const uploaded = await app.inject({ method: 'POST', url: `/session/${sessionId}/documents`, headers, payload });
    expect(uploaded.statusCode).toBe(303);
    const review = await app.inject({ method: 'GET', url: `/session/${sessionId}?step=review` });
    const details = /name="details" value="([^"]+)"/.exec(review.body)?.[1] ?? expect.unreachable('a review form');
    expect((await form({ action: 'confirm', details })).headers.location).toBe(`${sessionId}?notice=submitted`);
    // The submission itself starts the job (the loop has no timer here): no run is asked for.
    await eventually(async () => (await sessionRow(sessionId)).status === 'verified', { what: 'the kicked job' });

    const [job] = fake.jobs.slice(-1);
    expect(job?.idInfo).toMatchObject({ id_type: 'PASSPORT' });
    expect(job?.images.map((each) => each.imageTypeId).sort()).toEqual([2, 3]);
    expect((await sessionRow(sessionId)).status).toBe('verified');
  });

  it('checks a business registration number through Business Verification', async () => {
    const sessionId = await submittedSession('kyb');
    await settle();
    const [job] = fake.jobs.slice(-1);
    expect(job).toMatchObject({
      kind: 'business_verification',
      idInfo: { country: 'KE', id_type: 'BUSINESS_REGISTRATION', id_number: REGISTRATION_NUMBER },
    });
    expect(job?.partnerParams.job_type).toBe(7);
    expect((await sessionRow(sessionId)).status).toBe('verified');
  });

  it('rejects with a reason a person can act on, never the provider’s own text', async () => {
    fake.switches.resultCode = '0811';
    const sessionId = await submittedSession();
    await settle();
    const session = await sessionRow(sessionId);
    expect(session.status).toBe('rejected');
    expect(session.lastError).toMatch(/^The selfie does not match the photo on the ID document/);
    expect(JSON.stringify(await database.db.select().from(verificationSessionTransitions))).not.toContain(
      'FAKE-PROVIDER-TEXT',
    );
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
  });

  it('asks for the documents to send again, and a new job decides the resubmission', async () => {
    fake.switches.resultCode = '0921';
    const sessionId = await submittedSession();
    await settle();
    const asked = await sessionRow(sessionId);
    expect(asked.status).toBe('requires_input');
    expect(asked.resubmitDocuments).toEqual(['selfie']);
    expect(asked.lastError).toMatch(/No face could be found in the selfie/);

    fake.switches.resultCode = '0810';
    // A document counts as sent again when it is newer than the submission it answers.
    clock.advance(MINUTE);
    expect((await uploadDocument(app, acme.liveKey, sessionId, 'selfie', selfie)).statusCode).toBe(201);
    const again = await app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${sessionId}/submit`,
      headers: { 'x-service-api-key': acme.liveKey },
      payload: {},
    });
    expect(again.statusCode).toBe(200);
    await settle();
    expect((await sessionRow(sessionId)).status).toBe('verified');
    expect((await jobsOf(sessionId)).map((job) => [job.status, job.resultCode])).toEqual([
      ['completed', '0921'],
      ['completed', '0810'],
    ]);
  });

  it('hands a result code it does not map to a reviewer instead of guessing', async () => {
    fake.switches.resultCode = '0999';
    const sessionId = await submittedSession();
    await settle();
    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    const [handOver] = await handOversOf(sessionId);
    expect(handOver).toMatchObject({ actor: 'smile_id' });
    expect(handOver?.reason).toContain('result code 0999');
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
    expect(metricValue(await metricsText(), 'verification_provider_fallbacks_total', 'reason="unmapped"')).toBe(1);
  });
});

describe('callbacks applied once, whatever the network does', () => {
  it('come to a route documented in OpenAPI, public and never rate limited', async () => {
    const { notDocumented } = await compareRoutesWithOpenApi(app);
    expect(notDocumented).not.toContain('POST /v1/providers/smile-id/callback');
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { post?: { security?: unknown[] } }>;
    };
    expect(openapi.paths['/v1/providers/smile-id/callback']?.post?.security ?? []).toEqual([]);
    // A limited route carries the rate-limit headers on every answer; this one carries none.
    const answer = await postCallback('{}');
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
    const limited = await app.inject({
      method: 'GET',
      url: '/v1/wallet',
      headers: { 'x-service-api-key': acme.liveKey },
    });
    expect(limited.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('refuses a callback with a bad signature with 401 and changes nothing', async () => {
    const refusedBefore = metricValue(
      await metricsText(),
      'verification_provider_callbacks_total',
      'outcome="refused"',
    );
    fake.switches.callbacks = 'held';
    const sessionId = await submittedSession();
    await settle();
    const [job] = fake.jobs.slice(-1);
    if (job === undefined) expect.unreachable('the job was created');
    const before = await jobsOf(sessionId);

    const forged = await postCallback(fake.callbackBody(job, { badSignature: true }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ success: false, code: 'unauthorized' });
    const unsigned = JSON.parse(fake.callbackBody(job)) as Record<string, unknown>;
    delete unsigned.signature;
    expect((await postCallback(JSON.stringify(unsigned))).statusCode).toBe(401);
    // A good signature over another timestamp than the one sent is no signature either.
    const replayed = JSON.parse(fake.callbackBody(job)) as Record<string, unknown>;
    replayed.timestamp = new Date(Date.now() + 1000).toISOString();
    expect((await postCallback(JSON.stringify(replayed))).statusCode).toBe(401);

    expect((await sessionRow(sessionId)).status).toBe('processing');
    expect(await jobsOf(sessionId)).toEqual(before);
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
    expect(metricValue(await metricsText(), 'verification_provider_callbacks_total', 'outcome="refused"')).toBe(
      refusedBefore + 3,
    );

    await fake.sendHeldCallbacks();
    expect((await sessionRow(sessionId)).status).toBe('verified');
  });

  it('applies a callback sent three times once', async () => {
    const duplicatesBefore = metricValue(
      await metricsText(),
      'verification_provider_callbacks_total',
      'outcome="duplicate"',
    );
    fake.switches.callbackCopies = 3;
    const sessionId = await submittedSession();
    await settle();
    expect(fake.callbacksSent.slice(-3).map(({ status }) => status)).toEqual([200, 200, 200]);
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    expect((await eventTypesOf(database.db, sessionId)).filter((type) => type.endsWith('.verified'))).toHaveLength(1);
    expect(metricValue(await metricsText(), 'verification_provider_callbacks_total', 'outcome="duplicate"')).toBe(
      duplicatesBefore + 2,
    );
  });

  it('answers a signed callback about no job of ours with 200 and changes nothing', async () => {
    fake.switches.callbacks = 'held';
    const sessionId = await submittedSession();
    await settle();
    const [job] = fake.jobs.slice(-1);
    if (job === undefined) expect.unreachable('the job was created');
    const stranger = { ...job, partnerParams: { ...job.partnerParams, job_id: crypto.randomUUID() } };
    expect((await postCallback(fake.callbackBody(stranger))).statusCode).toBe(200);
    expect((await sessionRow(sessionId)).status).toBe('processing');
  });

  it('reconciles a job whose callback never came through job status', async () => {
    const appliedBefore = metricValue(
      await metricsText(),
      'verification_provider_reconciliations_total',
      'outcome="applied"',
    );
    fake.switches.callbacks = 'never';
    const sessionId = await submittedSession();
    await settle();
    expect((await sessionRow(sessionId)).status).toBe('processing');
    const [submitted] = await jobsOf(sessionId);
    expect(submitted?.status).toBe('submitted');

    clock.advance(RECONCILE_AFTER_MS - 1);
    await settle();
    expect((await sessionRow(sessionId)).status).toBe('processing');

    clock.advance(1);
    await settle();
    expect((await sessionRow(sessionId)).status).toBe('verified');
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    expect(metricValue(await metricsText(), 'verification_provider_reconciliations_total', 'outcome="applied"')).toBe(
      appliedBefore + 1,
    );
  });

  it('keeps waiting while Smile ID says the job is not done, then hands it over at the fallback time', async () => {
    fake.switches.callbacks = 'never';
    fake.switches.pending = true;
    const sessionId = await submittedSession();
    await settle();
    clock.advance(RECONCILE_AFTER_MS);
    await settle();
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'smile_id' });
    clock.set(new Date(TEST_START.getTime() + FALLBACK_AFTER_MS));
    await settle();
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'manual' });
  });

  it('sends the session to manual review when Smile ID is down past the fallback time, and ignores a late result', async () => {
    fake.switches.outage = true;
    const sessionId = await submittedSession();
    await settle();
    const [failing] = await jobsOf(sessionId);
    expect(failing).toMatchObject({ status: 'creating', lastError: 'server_error', attempts: 1 });

    // Retried while the outage lasts (each retry is a job status first, then a new creation).
    clock.advance(30 * MINUTE);
    await settle();
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'smile_id' });

    clock.set(new Date(TEST_START.getTime() + FALLBACK_AFTER_MS));
    await settle();
    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    const [handOver] = await handOversOf(sessionId);
    expect(handOver?.reason).toBe('Smile ID gave no result within 60 minutes of the submission; a reviewer decides');
    expect((await jobsOf(sessionId))[0]).toMatchObject({ status: 'failed', lastError: 'no_result' });
    const metrics = await metricsText();
    expect(metricValue(metrics, 'verification_provider_fallbacks_total', 'reason="no_result"')).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      metricValue(metrics, 'verification_provider_request_errors_total', 'call="prep_upload",kind="server_error"'),
    ).toBeGreaterThanOrEqual(1);

    // Smile ID comes back with a result for a job it never had: the reviewer keeps the session.
    fake.switches.outage = false;
    const late = {
      kind: 'document_verification' as const,
      smileJobId: '0000000001',
      partnerParams: { job_id: failing?.id ?? '', user_id: failing?.id ?? '', job_type: 6 },
      callbackUrl: '',
      idInfo: {},
      images: [],
      complete: true,
      resultCode: '0810',
    };
    expect((await postCallback(fake.callbackBody(late))).statusCode).toBe(200);
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
  });

  it('asks about a job whose creation timed out before sending it again, so Smile ID gets it once', async () => {
    const firstRequest = fake.requests.length;
    fake.switches.hang = true;
    const sessionId = await submittedSession();
    const run = jobs().runNow();
    await eventually(() => fake.hanging > 0, { what: 'the creation reaching Smile ID' });
    expect(timeouts.expireAll()).toBeGreaterThan(0);
    await run;
    expect((await jobsOf(sessionId))[0]).toMatchObject({ status: 'creating', lastError: 'timeout' });
    fake.releaseHanging();

    // Smile ID turns the job status away: the job is still one that may have reached it.
    fake.switches.hang = false;
    fake.switches.rateLimited = true;
    clock.advance(MINUTE);
    await settle();
    expect((await jobsOf(sessionId))[0]).toMatchObject({ status: 'creating', lastError: 'timeout' });

    fake.switches.rateLimited = false;
    clock.advance(MINUTE);
    await settle();
    expect((await sessionRow(sessionId)).status).toBe('verified');
    // The hung creation, a job status turned away, a job status Smile ID answers with "unknown job", and only
    // then the creation.
    const requests = fake.requests.slice(firstRequest).map(({ path, signed }) => `${path} ${signed}`);
    expect(requests).toEqual([
      '/v1/upload undefined',
      '/v1/job_status undefined',
      '/v1/job_status true',
      '/v1/upload true',
      '/v1/uploads/:id true',
    ]);
  });

  it('hands a job Smile ID refuses to a reviewer at once', async () => {
    fake.switches.refuseJobs = { status: 400, code: '2204' };
    const sessionId = await submittedSession();
    await settle();
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    const [handOver] = await handOversOf(sessionId);
    expect(handOver?.reason).toBe('Smile ID could not take the job (code 2204); a reviewer decides');
  });

  it('never logs the API key, a signature or the ID number', async () => {
    fake.switches.callbackCopies = 2;
    await submittedSession();
    await settle();
    const [job] = fake.jobs.slice(-1);
    if (job === undefined) expect.unreachable('the job was created');
    const body = JSON.parse(fake.callbackBody(job)) as { signature: string };
    await postCallback(JSON.stringify(body));
    const text = logs.text();
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(body.signature);
    expect(text).not.toContain(ID_NUMBER);
    expect(text).toContain('Applied a Smile ID result');
  });
});

describe.skipIf(missing(postgresServer))(
  'concurrent duplicate callbacks (needs PostgreSQL: set DATABASE_URL; PGlite runs one statement at a time)',
  () => {
    it('capture the hold once and move the session once', async () => {
      fake.switches.callbacks = 'held';
      const sessionId = await submittedSession();
      await settle();
      const [job] = fake.jobs.slice(-1);
      if (job === undefined) expect.unreachable('the job was created');
      const answers = await Promise.all(Array.from({ length: 8 }, () => postCallback(fake.callbackBody(job))));
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
      expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
      const verified = (await eventTypesOf(database.db, sessionId)).filter((type) => type.endsWith('.verified'));
      expect(verified).toHaveLength(1);
      const moves = await database.db
        .select()
        .from(verificationSessionTransitions)
        .where(eq(verificationSessionTransitions.sessionId, sessionId));
      expect(moves.filter((move) => move.toStatus === 'verified')).toHaveLength(1);
    });
  },
);
