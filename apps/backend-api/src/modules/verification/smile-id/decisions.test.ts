import type { VerificationStatus } from '@platform/db';
import { organizations, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import { multipart, uploadDocument } from '../../../../test/document-fixtures.js';
import { defaultResultCode, FAKE_DIRECTORS, FAKE_REGISTRY_PERSON } from '../../../../test/fake-smile-id.js';
import { statedPersonParts } from '../../../../test/hosted-page-fixtures.js';
import {
  ID_NUMBER,
  MINUTE,
  PAGE_SECRET,
  REGISTRATION_NUMBER,
  type SmileIdWorld,
  smileIdSuite,
} from '../../../../test/smile-id-suite.js';
import { createdSessionId, eventTypesOf, holdMovements } from '../../../../test/verification-fixtures.js';
import { listSessionChecks, openCheckEvidence, openVerifiedOutputs } from '../checks/index.js';
import { formTokenFor } from '../hosted-page/form-token.js';
import { listDirectorSessions } from '../repository.js';

const { database, clock, world, submittedSession, settle, sessionRow, jobsOf, handOversOf, metricsText, metricValue } =
  smileIdSuite();
let vault: SmileIdWorld['vault'];
let app: SmileIdWorld['app'];
let fake: SmileIdWorld['fake'];
let acme: SmileIdWorld['acme'];
let selfie: SmileIdWorld['selfie'];
let idFront: SmileIdWorld['idFront'];
beforeEach(() => {
  ({ app, fake, acme, selfie, idFront, vault } = world());
});

// The typed names, date of birth and expiry are another part's (the submission takes them once it is made): until
// then Smile ID answers "Not Provided" for them, and the fake's switches play what it would answer.
const TYPED = { idType: 'national_id', idNumber: ID_NUMBER };

/** The job kinds the session went through, with their result codes. */
async function chainOf(sessionId: string) {
  return (await jobsOf(sessionId)).map((job) => `${job.kind} ${job.status} ${job.resultCode}`);
}

/** The session's Smile ID checks, as the reviewer reads them (without evidence). */
async function checksOf(sessionId: string) {
  const rows = await listSessionChecks(database.db, sessionId);
  return rows.filter((row) => row.source === 'smile_id');
}

async function useEnhancedPolicy() {
  await database.db.update(organizations).set({ verificationPolicy: 'enhanced' }).where(eq(organizations.id, acme.id));
}

describe('a national ID Smile ID decides', () => {
  it('looks the number up (Enhanced KYC), matches the selfie to the registry photo (Biometric KYC) and verifies', async () => {
    const jobsBefore = fake.jobs.length;
    const sessionId = await submittedSession('kyc', { details: TYPED });
    // The submission itself starts the chain (the loop has no timer here).
    await eventually(() => fake.jobs.length >= jobsBefore + 1, { what: 'the job the submission kicked' });
    await settle();

    const [lookup, biometric] = fake.jobs.slice(jobsBefore);
    expect(fake.jobs).toHaveLength(jobsBefore + 2);
    expect(lookup).toMatchObject({ kind: 'enhanced_kyc', partnerParams: { job_type: 5 } });
    expect(lookup?.idInfo).toMatchObject({ country: 'KE', id_type: 'NATIONAL_ID', id_number: ID_NUMBER });
    expect(biometric).toMatchObject({ kind: 'biometric_kyc', partnerParams: { job_type: 1 } });
    expect(biometric?.idInfo).toMatchObject({ entered: 'true', id_type: 'NATIONAL_ID', id_number: ID_NUMBER });
    // The selfie only: the registry has the photo it is compared with.
    expect(biometric?.images.map((image) => image.imageTypeId)).toEqual([2]);
    expect(biometric?.images[0]?.bytes.subarray(0, 4).toString('hex')).toBe('89504e47');
    // The callback goes to this service's route, at VERIFY_URL; the session id never leaves the service.
    expect(biometric?.callbackUrl).toBe('https://verify.example.test/v1/providers/smile-id/callback');
    expect(JSON.stringify(fake.jobs.map((job) => job.partnerParams))).not.toContain(sessionId);
    expect(fake.requests.every((request) => request.signed !== false)).toBe(true);

    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'verified', decisionPolicy: 'standard' });
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    expect((await eventTypesOf(database.db, sessionId)).sort()).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.verified',
    ]);
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012', 'biometric_kyc completed 1020']);
    const checks = await checksOf(sessionId);
    // Made at the same moment of the test's clock: compared as a set.
    expect(checks.map((check) => `${check.kind} ${check.outcome}`).sort()).toEqual([
      'document_authenticity not_applicable',
      'face_match passed',
      'id_registry passed',
      'liveness passed',
    ]);
    expect(checks.find((check) => check.kind === 'face_match')?.details).toEqual({ comparedWith: 'registry_photo' });
    // The registry's record is sealed evidence; the summaries and details carry none of it.
    expect(JSON.stringify(checks.map(({ summary, details }) => ({ summary, details })))).not.toMatch(/WANJIKU|1990/);
    const registry = checks.find((check) => check.kind === 'id_registry');
    expect(registry?.evidence).not.toBeNull();
    expect(openCheckEvidence(vault, session, registry ?? expect.unreachable())).toMatchObject({
      fullName: FAKE_REGISTRY_PERSON.fullName,
      dateOfBirth: FAKE_REGISTRY_PERSON.dob,
    });
    expect(openVerifiedOutputs(vault, session)).toEqual({
      type: 'kyc',
      person: {
        firstName: 'WANJIKU',
        middleName: 'AMANI',
        lastName: 'KAMAU',
        dateOfBirth: FAKE_REGISTRY_PERSON.dob,
        idType: 'national_id',
        idNumber: ID_NUMBER,
        documentExpiry: FAKE_REGISTRY_PERSON.expiry,
        nationality: 'KEN',
        faceComparedWith: 'registry_photo',
      },
    });
    const metrics = await metricsText();
    expect(metricValue(metrics, 'verification_provider_callbacks_total', 'outcome="verified"')).toBe(1);
    expect(
      metricValue(metrics, 'verification_decision_duration_seconds_count', 'outcome="verified",source="smile_id"'),
    ).toBe(1);
    expect(
      metricValue(metrics, 'verification_provider_request_duration_seconds_count', 'call="enhanced_kyc",outcome="ok"'),
    ).toBe(1);
  });

  it('compares the selfie with the ID card’s photo when the registry has none, and says so', async () => {
    fake.switches.registry.photo = false;
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012', 'document_verification completed 0810']);
    const [, document] = fake.jobs.slice(-2);
    expect(document?.idInfo).toMatchObject({ id_type: 'NATIONAL_ID', entered: 'false' });
    expect(document?.images.map((image) => image.imageTypeId).sort()).toEqual([2, 3, 7]);
    const checks = await checksOf(sessionId);
    expect(checks.find((check) => check.kind === 'id_registry')?.details).toMatchObject({ registryPhoto: false });
    expect(checks.find((check) => check.kind === 'face_match')?.details).toEqual({ comparedWith: 'id_document_photo' });
    expect(checks.find((check) => check.kind === 'document_authenticity')?.outcome).toBe('passed');
    const session = await sessionRow(sessionId);
    expect(session.status).toBe('verified');
    expect(openVerifiedOutputs(vault, session)).toMatchObject({
      person: { faceComparedWith: 'id_document_photo', idNumber: ID_NUMBER },
    });
  });

  it('sends to review, naming it, an ID number whose registry record has other names and another date of birth', async () => {
    fake.switches.registry.names = 'Non Matching';
    fake.switches.registry.dob = 'Non Matching';
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    expect(await sessionRow(sessionId)).toMatchObject({
      status: 'processing',
      decisionSource: 'manual',
      decisionPolicy: 'standard',
    });
    const [handOver] = await handOversOf(sessionId);
    expect(handOver?.reason).toBe(
      'The ID number typed belongs to a registry record whose names and date of birth differ from those typed. ' +
        'A reviewer decides.',
    );
    const registry = (await checksOf(sessionId)).find((check) => check.kind === 'id_registry');
    expect(registry).toMatchObject({ outcome: 'attention', code: 'id_number_mismatch' });
    expect(registry?.details).toMatchObject({ mismatched: ['names', 'dateOfBirth'] });
    expect(JSON.stringify(registry?.details)).not.toContain('Wanjiku');
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
  });

  it('sends a partial name match to review with its code', async () => {
    fake.switches.registry.names = 'Partial Match';
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const registry = (await checksOf(sessionId)).find((check) => check.kind === 'id_registry');
    expect(registry).toMatchObject({ outcome: 'attention', code: 'names_partial_match' });
    expect(registry?.details).toMatchObject({ mismatched: ['names'] });
    expect((await handOversOf(sessionId))[0]?.reason).toContain('match the registry’s record only in part');
  });

  it('sends a number the registry does not know to review (the policy keeps registry failures for a person)', async () => {
    fake.switches.resultCode = (job) => (job.kind === 'enhanced_kyc' ? '1013' : defaultCode(job));
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    // No registry photo to compare with: the ID card's photo is.
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1013', 'document_verification completed 0810']);
    const registry = (await checksOf(sessionId)).find((check) => check.kind === 'id_registry');
    expect(registry).toMatchObject({ outcome: 'failed', code: '1013' });
    expect(registry?.details).toMatchObject({ consequence: { decision: 'requires_input' } });
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    expect((await handOversOf(sessionId))[0]?.reason).toContain('The ID number typed was not found in the registry');
  });

  it('sends the session to review when the registry is down (1015)', async () => {
    fake.switches.resultCode = (job) => (job.kind === 'enhanced_kyc' ? '1015' : defaultCode(job));
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const registry = (await checksOf(sessionId)).find((check) => check.kind === 'id_registry');
    expect(registry).toMatchObject({ outcome: 'unavailable', code: '1015' });
    expect((await handOversOf(sessionId))[0]?.reason).toContain('The registry (IPRS) did not answer');
  });

  it('makes the age check again from the registry’s date of birth, and refuses a person the registry makes a minor', async () => {
    fake.switches.registryDateOfBirth = '2010-06-01';
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'rejected', lastError: 'The person is younger than 18, the minimum age' });
    const ages = (await listSessionChecks(database.db, sessionId)).filter((check) => check.kind === 'age');
    // Nothing typed to check at the submission; the registry's record then decides.
    expect(ages.map((check) => `${check.outcome} from ${(check.details as { from: string }).from}`)).toEqual([
      'not_applicable from typed',
      'failed from registry',
    ]);
    // A refusal is final: the selfie's job is not paid for.
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012']);
  });

  it('sends a passport whose MRZ does not match the number typed to review, naming the MRZ', async () => {
    const mrz = [
      'P<KENOTIENO<<AMANI<<<<<<<<<<<<<<<<<<<<<<<<<<',
      // The passport number AK1234567 with its check digit, as a reader would take it.
      'AK12345678KEN9405170F3106305<<<<<<<<<<<<<<02',
    ].join('\n');
    const sessionId = await submittedSession('kyc', { details: { idType: 'passport', idNumber: 'AK7654321', mrz } });
    await settle();
    const session = await sessionRow(sessionId);
    expect(session.status).toBe('processing');
    expect(session.decisionSource).toBe('manual');
    const mrzCheck = (await listSessionChecks(database.db, sessionId)).find((check) => check.kind === 'mrz');
    expect(mrzCheck).toMatchObject({ outcome: 'failed', code: 'mrz_mismatch', details: { mismatched: ['idNumber'] } });
    expect((await handOversOf(sessionId)).at(-1)?.reason).toContain('The MRZ differs from what was typed');
  });

  it('rejects a selfie that does not match the registry photo, with this service’s reason, and screens no one', async () => {
    await useEnhancedPolicy();
    fake.switches.resultCode = (job) => (job.kind === 'biometric_kyc' ? '1022' : defaultCode(job));
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const session = await sessionRow(sessionId);
    expect(session.status).toBe('rejected');
    expect(session.lastError).toMatch(/^The selfie does not match the registry’s photo of this ID number/);
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012', 'biometric_kyc completed 1022']);
    expect(JSON.stringify(await database.db.select().from(verificationSessionTransitions))).not.toContain(
      'FAKE-PROVIDER-TEXT',
    );
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
  });

  it('asks for a new selfie, and a new chain decides the resubmission', async () => {
    fake.switches.resultCode = (job) => (job.kind === 'biometric_kyc' ? '0921' : defaultCode(job));
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const asked = await sessionRow(sessionId);
    expect(asked.status).toBe('requires_input');
    expect(asked.resubmitDocuments).toEqual(['selfie']);
    expect(asked.lastError).toMatch(/No face could be found in the selfie/);

    fake.switches.resultCode = defaultCode;
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
    expect(await chainOf(sessionId)).toEqual([
      'enhanced_kyc completed 1012',
      'biometric_kyc completed 0921',
      'enhanced_kyc completed 1012',
      'biometric_kyc completed 1020',
    ]);
  });

  it('hands a result code it does not map to a reviewer instead of guessing', async () => {
    fake.switches.resultCode = (job) => (job.kind === 'biometric_kyc' ? '0999' : defaultCode(job));
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    const [handOver] = await handOversOf(sessionId);
    expect(handOver).toMatchObject({ actor: 'smile_id' });
    expect(handOver?.reason).toContain('result code 0999');
    const face = (await checksOf(sessionId)).find((check) => check.kind === 'face_match');
    expect(face).toMatchObject({ outcome: 'unavailable', code: '0999' });
    expect((await jobsOf(sessionId)).at(-1)).toMatchObject({ lastError: 'unmapped' });
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
    expect(metricValue(await metricsText(), 'verification_provider_fallbacks_total', 'reason="unmapped"')).toBe(1);
  });

  it('does not use an Enhanced KYC answer signed with another key, and asks again later', async () => {
    fake.switches.badAnswerSignature = true;
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    expect((await jobsOf(sessionId))[0]).toMatchObject({
      kind: 'enhanced_kyc',
      status: 'creating',
      lastError: 'bad_signature',
    });
    expect(await checksOf(sessionId)).toEqual([]);
    fake.switches.badAnswerSignature = false;
    clock.advance(MINUTE);
    await settle();
    // The lookup is asked about first (its job status), then the chain goes on.
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012', 'biometric_kyc completed 1020']);
    expect((await sessionRow(sessionId)).status).toBe('verified');
  });
});

describe('screening, when the organization’s policy asks for it', () => {
  it('screens the person by the registry’s name and verifies when no list names them', async () => {
    await useEnhancedPolicy();
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    expect(await chainOf(sessionId)).toEqual([
      'enhanced_kyc completed 1012',
      'biometric_kyc completed 1020',
      'aml_screening completed 1031',
    ]);
    const [screening] = fake.jobs.slice(-1);
    expect(screening?.idInfo).toEqual({
      full_name: FAKE_REGISTRY_PERSON.fullName,
      countries: ['KE'],
      birth_year: '1990',
    });
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'verified', decisionPolicy: 'enhanced' });
  });

  it('sends possible matches to review, their count in the details and the hits sealed for the reviewer', async () => {
    await useEnhancedPolicy();
    fake.switches.amlHits = 2;
    const sessionId = await submittedSession('kyc', { details: TYPED });
    await settle();
    const session = await sessionRow(sessionId);
    expect(session).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    const aml = (await checksOf(sessionId)).find((check) => check.kind === 'aml_screening');
    expect(aml).toMatchObject({ outcome: 'attention', code: '1030', details: { screened: 1, hits: 2 } });
    expect(aml?.summary).not.toContain('WANJIKU');
    const evidence = openCheckEvidence(vault, session, aml ?? expect.unreachable());
    expect(evidence?.hits).toHaveLength(2);
    expect((await handOversOf(sessionId))[0]?.reason).toContain('found 2 possible matches');
  });

  it('screens each director the business registry names', async () => {
    await useEnhancedPolicy();
    const before = fake.requests.length;
    const sessionId = await submittedSession('kyb');
    await settle();
    expect(await chainOf(sessionId)).toEqual(['business_verification completed 1012', 'aml_screening completed 1031']);
    const amlRequests = fake.requests.slice(before).filter((request) => request.path === '/v2/aml');
    expect(amlRequests).toHaveLength(FAKE_DIRECTORS.length);
    expect(amlRequests.every((request) => request.signed)).toBe(true);
  });
});

describe('a passport, an alien card and a business', () => {
  it('sends a passport submitted on the hosted page to Enhanced KYC, then Document Verification', async () => {
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
      ...statedPersonParts,
      image('id_document_front', idFront),
      image('selfie', selfie),
    ]);
    const uploaded = await app.inject({ method: 'POST', url: `/session/${sessionId}/documents`, headers, payload });
    expect(uploaded.statusCode).toBe(303);
    const review = await app.inject({ method: 'GET', url: `/session/${sessionId}?step=review` });
    const details = /name="details" value="([^"]+)"/.exec(review.body)?.[1] ?? expect.unreachable('a review form');
    expect((await form({ action: 'confirm', details })).headers.location).toBe(`${sessionId}?notice=submitted`);
    // The submission itself starts the chain (the loop has no timer here): no run is asked for.
    await eventually(async () => (await sessionRow(sessionId)).status === 'verified', { what: 'the kicked chain' });

    const [lookup, document] = fake.jobs.slice(-2);
    expect(lookup?.idInfo).toMatchObject({ id_type: 'PASSPORT', id_number: 'AK1234567' });
    expect(document?.idInfo).toMatchObject({ id_type: 'PASSPORT' });
    expect(document?.images.map((each) => each.imageTypeId).sort()).toEqual([2, 3]);
    expect(await handOversOf(sessionId)).toEqual([]);
  });

  it('sends an alien card to Document Verification after the lookup, whatever the registry’s photo', async () => {
    const sessionId = await submittedSession('kyc', { details: { idType: 'alien_id', idNumber: '123456' } });
    await settle();
    expect(await chainOf(sessionId)).toEqual(['enhanced_kyc completed 1012', 'document_verification completed 0810']);
    expect(fake.jobs.at(-1)?.idInfo).toMatchObject({ id_type: 'ALIEN_CARD' });
    expect((await sessionRow(sessionId)).status).toBe('verified');
  });

  it('checks a business registration number and reads the company, its directors and owners', async () => {
    const sessionId = await submittedSession('kyb');
    await settle();
    const [job] = fake.jobs.slice(-1);
    expect(job).toMatchObject({
      kind: 'business_verification',
      idInfo: { country: 'KE', id_type: 'BUSINESS_REGISTRATION', id_number: REGISTRATION_NUMBER },
    });
    expect(job?.partnerParams.job_type).toBe(7);
    const session = await sessionRow(sessionId);
    const [registry] = await checksOf(sessionId);
    expect(registry).toMatchObject({
      kind: 'business_registry',
      outcome: 'passed',
      details: { status: 'registered', directors: 2, beneficialOwners: 1 },
    });
    expect(openCheckEvidence(vault, session, registry ?? expect.unreachable())).toMatchObject({
      registeredName: 'ACME TRADING LIMITED',
      registrationNumber: REGISTRATION_NUMBER,
      directors: FAKE_DIRECTORS.map((name) => ({ name, role: 'Director' })),
      beneficialOwners: [{ name: FAKE_DIRECTORS[0], shareholdingPercent: 60 }],
    });
    // Each director the registry named is asked to verify in a session of their own; the business waits for them.
    expect(session).toMatchObject({ status: 'processing', decisionSource: 'smile_id' });
    expect(await handOversOf(sessionId)).toEqual([]);
    const directors = await listDirectorSessions(database.db, sessionId);
    expect(
      directors.map(({ type, status, price, parentSessionId }) => ({ type, status, price, parentSessionId })),
    ).toEqual([0, 1].map(() => ({ type: 'kyc', status: 'pending', price: 0, parentSessionId: sessionId })));
    await settle();
    expect(await listDirectorSessions(database.db, sessionId)).toHaveLength(2);
  });

  it('verifies the business once its directors have verified themselves, and sends it to review when one did not', async () => {
    const endDirectors = async (sessionId: string, statuses: VerificationStatus[]) => {
      const directors = await listDirectorSessions(database.db, sessionId);
      for (const [index, director] of directors.entries()) {
        await database.db
          .update(verificationSessions)
          .set({ status: statuses[index] ?? 'verified' })
          .where(eq(verificationSessions.id, director.id));
      }
    };
    const verifiedBusiness = await submittedSession('kyb');
    await settle();
    await endDirectors(verifiedBusiness, ['verified', 'pending']);
    await settle();
    expect((await sessionRow(verifiedBusiness)).status).toBe('processing');
    await endDirectors(verifiedBusiness, ['verified', 'verified']);
    await settle();
    expect(await sessionRow(verifiedBusiness)).toMatchObject({ status: 'verified', decisionPolicy: 'standard' });
    expect(
      // Made at one moment of the test's clock: compared in the kinds' order.
      (await listSessionChecks(database.db, verifiedBusiness))
        .map((check) => [check.kind, check.source, check.outcome])
        .sort(),
    ).toEqual([
      ['business_registry', 'smile_id', 'passed'],
      ['directors', 'service', 'passed'],
    ]);
    expect((await holdMovements(database.db, verifiedBusiness)).sort()).toEqual(['capture', 'hold']);
    // The verified data names each director with their own session and its result; an owner who is one shares it.
    const directorSessions = await listDirectorSessions(database.db, verifiedBusiness);
    const verifiedData = openVerifiedOutputs(vault, await sessionRow(verifiedBusiness));
    expect(verifiedData?.type === 'kyb' ? verifiedData.business.directors : undefined).toEqual(
      FAKE_DIRECTORS.map((name, index) => ({
        name,
        role: 'Director',
        sessionId: directorSessions[index]?.id,
        status: 'verified',
        shareholdingPercent: null,
      })),
    );
    expect(verifiedData?.type === 'kyb' ? verifiedData.business.beneficialOwners[0] : undefined).toMatchObject({
      name: FAKE_DIRECTORS[0],
      sessionId: directorSessions[0]?.id,
      status: 'verified',
    });

    const doubtful = await submittedSession('kyb');
    await settle();
    await endDirectors(doubtful, ['verified', 'expired']);
    await settle();
    expect(await sessionRow(doubtful)).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    expect((await handOversOf(doubtful))[0]?.reason).toContain('1 of 2 directors were not verified.');
  });

  it('sends a dissolved company to review, naming its status', async () => {
    fake.switches.businessStatus = 'Dissolved';
    const sessionId = await submittedSession('kyb');
    await settle();
    const [registry] = await checksOf(sessionId);
    expect(registry).toMatchObject({ outcome: 'attention', details: { status: 'dissolved' } });
    expect((await handOversOf(sessionId))[0]?.reason).toContain("company's status as dissolved");
  });
});

/** The fake's default result code of a job (each job type's "all good"). */
function defaultCode(job: Parameters<typeof defaultResultCode>[0]): string {
  return defaultResultCode(job);
}
