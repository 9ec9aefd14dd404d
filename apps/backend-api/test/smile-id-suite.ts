import { verificationProviderJobs, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { captureLogs } from '@platform/http/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { BackendApp } from '../src/app.js';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from './app-fixtures.js';
import { pngImage, temporaryVault, uploadDocument } from './document-fixtures.js';
import { defaultSwitches, type FakeSmileId, manualTimeouts, startFakeSmileId } from './fake-smile-id.js';
import { createdSessionId, fundWallet, truncateVerificationData } from './verification-fixtures.js';

// The suite of Smile ID deciding sessions (src/modules/verification/smile-id/decisions.test.ts, callbacks.test.ts),
// end to end against the fake Smile ID (fake-smile-id.ts), whose switches play a bad signature, duplicates, a missing
// callback, an outage and time-outs. The app's job loop runs only when asked (`smileIdJobs.runNow()`), on the
// suite's clock.

const PARTNER_ID = '2468';
export const API_KEY = 'fake-smile-id-api-key-0123456789';
export const MINUTE = 60_000;
export const RECONCILE_AFTER_MS = 5 * MINUTE;
export const FALLBACK_AFTER_MS = 60 * MINUTE;
export const ID_NUMBER = '27183945';
export const REGISTRATION_NUMBER = 'PVT-AB12CD3';
export const PAGE_SECRET = 'a-hosted-page-secret-of-at-least-32-characters';

/** What a test of the suite meets: made before the first test (the organization before each). */
export interface SmileIdWorld {
  app: BackendApp;
  fake: FakeSmileId;
  vault: DocumentVault;
  acme: TestOrganization;
  selfie: Buffer;
  idFront: Buffer;
}

/**
 * One app deciding live sessions by Smile ID, on its own database, clock and manual time-outs; before each test the
 * clock at TEST_START, the fake's switches as a good Smile ID, and Acme made anew with 10,000 in its live wallet.
 */
export function smileIdSuite() {
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
    Object.assign(fake.switches, defaultSwitches());
    await truncateVerificationData(database.db);
    [acme] = await replaceOrganizations(database.db, 'Acme');
    await fundWallet(database.db, acme.id, 'live', 10_000);
  });

  const jobs = () => app.smileIdJobs ?? expect.unreachable('Smile ID is configured');

  /**
   * A live session with its documents and details, submitted through the API (which kicks the job loop), where this
   * service makes its own checks beside Smile ID's.
   */
  async function submittedSession(
    type: 'kyc' | 'kyb' = 'kyc',
    options: { details?: Record<string, unknown> } = {},
  ): Promise<string> {
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
      options.details ??
      (type === 'kyc' ? { idType: 'national_id', idNumber: ID_NUMBER } : { registrationNumber: REGISTRATION_NUMBER });
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

  /**
   * Runs the job loop (joining the run the submission kicked) and waits for the callbacks it caused, again while a
   * run asks Smile ID something: a callback's result may chain the next job.
   */
  async function settle(): Promise<void> {
    let requests = -1;
    while (requests !== fake.requests.length) {
      requests = fake.requests.length;
      await jobs().runNow();
      await fake.settled();
    }
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

  return {
    logs,
    database,
    clock,
    timeouts,
    /** The app, the fake, the vault, the organization and the photos, in a hook or test. */
    world(): SmileIdWorld {
      return { app, fake, vault, acme, selfie, idFront };
    },
    jobs,
    submittedSession,
    settle,
    sessionRow,
    jobsOf,
    handOversOf,
    postCallback,
    metricsText,
    metricValue,
  };
}
