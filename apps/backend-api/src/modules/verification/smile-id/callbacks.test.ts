import { organizations, verificationSessionTransitions } from '@platform/db/schema';
import { compareRoutesWithOpenApi } from '@platform/http';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { TEST_START } from '../../../../test/app-fixtures.js';
import {
  API_KEY,
  FALLBACK_AFTER_MS,
  ID_NUMBER,
  MINUTE,
  RECONCILE_AFTER_MS,
  type SmileIdWorld,
  smileIdSuite,
} from '../../../../test/smile-id-suite.js';
import { eventTypesOf, holdMovements } from '../../../../test/verification-fixtures.js';
import { listSessionChecks } from '../checks/index.js';

const {
  logs,
  database,
  clock,
  timeouts,
  world,
  jobs,
  submittedSession,
  settle,
  sessionRow,
  jobsOf,
  handOversOf,
  postCallback,
  metricsText,
  metricValue,
} = smileIdSuite();
let app: SmileIdWorld['app'];
let fake: SmileIdWorld['fake'];
let acme: SmileIdWorld['acme'];
beforeEach(() => {
  ({ app, fake, acme } = world());
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
    // Enhanced KYC answered at once; Biometric KYC waits for its callback.
    const [registry, submitted] = await jobsOf(sessionId);
    expect(registry).toMatchObject({ kind: 'enhanced_kyc', status: 'completed', resultCode: '1012' });
    expect(submitted).toMatchObject({ kind: 'biometric_kyc', status: 'submitted' });

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
      metricValue(metrics, 'verification_provider_request_errors_total', 'call="enhanced_kyc",kind="server_error"'),
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
      '/v1/id_verification undefined',
      '/v1/job_status undefined',
      '/v1/job_status true',
      '/v1/id_verification true',
      // The chain's next job, given to Smile ID in the same run.
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

    it('chain the next job of a chained job once', async () => {
      // Biometric KYC is itself the chain's second job; the enhanced policy adds an AML Check after it.
      await database.db
        .update(organizations)
        .set({ verificationPolicy: 'enhanced' })
        .where(eq(organizations.id, acme.id));
      fake.switches.callbacks = 'held';
      const sessionId = await submittedSession();
      await settle();
      const [job] = fake.jobs.slice(-1);
      if (job?.kind !== 'biometric_kyc') expect.unreachable('the chained Biometric KYC was created');
      const answers = await Promise.all(Array.from({ length: 8 }, () => postCallback(fake.callbackBody(job))));
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
      const kinds = (await jobsOf(sessionId)).map((row) => row.kind);
      expect(kinds).toEqual(['enhanced_kyc', 'biometric_kyc', 'aml_screening']);
      const checks = await listSessionChecks(database.db, sessionId);
      expect(checks.filter((check) => check.kind === 'face_match')).toHaveLength(1);
      await settle();
      expect((await sessionRow(sessionId)).status).toBe('verified');
      expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    });
  },
);
