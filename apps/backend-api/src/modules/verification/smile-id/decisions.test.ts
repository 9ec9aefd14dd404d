import { verificationSessionTransitions } from '@platform/db/schema';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import { multipart, uploadDocument } from '../../../../test/document-fixtures.js';
import {
  MINUTE,
  PAGE_SECRET,
  REGISTRATION_NUMBER,
  type SmileIdWorld,
  smileIdSuite,
} from '../../../../test/smile-id-suite.js';
import { createdSessionId, eventTypesOf, holdMovements } from '../../../../test/verification-fixtures.js';
import { formTokenFor } from '../hosted-page/form-token.js';

const { database, clock, world, submittedSession, settle, sessionRow, jobsOf, handOversOf, metricsText, metricValue } =
  smileIdSuite();
let app: SmileIdWorld['app'];
let fake: SmileIdWorld['fake'];
let acme: SmileIdWorld['acme'];
let selfie: SmileIdWorld['selfie'];
let idFront: SmileIdWorld['idFront'];
beforeEach(() => {
  ({ app, fake, acme, selfie, idFront } = world());
});

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
