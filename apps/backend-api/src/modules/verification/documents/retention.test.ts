import { unitOfWork } from '@platform/db';
import { organizations, verificationConsents, verificationDocuments, verificationSessions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import type { VerificationRetentionBounds } from '@platform/organizations';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, quietPeriod } from '#test-timing';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import { pngImage, storedFiles, temporaryVault } from '../../../../test/document-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import { moveSession } from '../index.js';
import { captureDocument, erasePersonalData, sessionTakingDocuments, submitSession } from './index.js';
import { eraseExpiredPersonalData, type RetentionLogger, startDocumentRetention } from './retention.js';

// The retention job: documents and submitted details deleted `retentionDays` after a final status, looked for in
// the storage folder itself, on the app's clock.

const DAY = 24 * 60 * 60 * 1000;
const database = useTestDatabase();
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let directory: string;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let globex: TestOrganization;
let image: Buffer;

beforeAll(async () => {
  ({ vault, directory, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, { now: clock.now, vault });
  image = await pngImage();
});
afterAll(async () => {
  await app?.close();
  await removeFolder?.();
});
beforeEach(async () => {
  clock.set(TEST_START);
  await truncateVerificationData(database.db);
  [acme, globex] = await replaceOrganizations(database.db, 'Acme', 'Globex');
  await fundWallet(database.db, acme.id, 'test', 10_000);
  await fundWallet(database.db, globex.id, 'test', 10_000);
});

const daysAfterStart = (days: number) => new Date(TEST_START.getTime() + days * DAY);

/**
 * A kyc session with a passport and a selfie, created, filled and (unless `to` is pending or processing) finished
 * at `at`: submitted then decided (verified, rejected), or left pending then closed (canceled, expired).
 */
async function sessionWithDocuments(
  at: Date,
  to: 'pending' | 'processing' | 'verified' | 'rejected' | 'canceled' | 'expired',
  organization: TestOrganization = acme,
): Promise<string> {
  clock.set(at);
  const sessionId = await createdSessionId(app, organization.testKey);
  const db = database.db;
  const session = await sessionTakingDocuments(db, { sessionId });
  for (const kind of ['id_document_front', 'selfie']) {
    await captureDocument(db, vault, { session, kind, bytes: image, now: at });
  }
  if (to === 'processing' || to === 'verified' || to === 'rejected') {
    const input = { idType: 'passport', idNumber: 'AK1234567' };
    await db.transaction((tx) => submitSession(tx, vault, { sessionId, input, actor: 'hosted_page', now: at }, {}));
  }
  if (to !== 'pending' && to !== 'processing') {
    await unitOfWork(db, (work) => moveSession(work, { sessionId, to, actor: 'test', now: at }, {}));
  }
  return sessionId;
}

async function filesOf(sessionId: string): Promise<number> {
  return (await storedFiles(directory)).filter((file) => file.path.includes(sessionId)).length;
}

async function rowOf(sessionId: string) {
  const [session] = await database.db.select().from(verificationSessions).where(eq(verificationSessions.id, sessionId));
  const documents = await database.db
    .select({ erasedAt: verificationDocuments.erasedAt })
    .from(verificationDocuments)
    .where(eq(verificationDocuments.sessionId, sessionId));
  return {
    erasedAt: session?.personalDataErasedAt,
    hasDetails: session?.submittedDetails !== null,
    documentsErased: documents.map((document) => document.erasedAt),
  };
}

const BOUNDS: VerificationRetentionBounds = { defaultDays: 30, minDays: 7, maxDays: 2555 };
const run = (now: Date, defaultDays = 30, extra: { batchSize?: number; logger?: RetentionLogger } = {}) =>
  eraseExpiredPersonalData(database.db, vault, now, { retention: { ...BOUNDS, defaultDays }, ...extra });

describe('document retention', () => {
  it("erases each organization's sessions after its own period: 7 days for one, the default for another", async () => {
    await database.db.update(organizations).set({ verificationRetentionDays: 7 }).where(eq(organizations.id, acme.id));
    const acmeOld = await sessionWithDocuments(daysAfterStart(0), 'verified');
    const acmeRecent = await sessionWithDocuments(daysAfterStart(3), 'rejected');
    const globexOld = await sessionWithDocuments(daysAfterStart(0), 'verified', globex);

    // 8 days on: Acme's 7 days have passed for its first session only; Globex keeps the default 30.
    expect(await run(daysAfterStart(8))).toBe(1);
    expect(await filesOf(acmeOld)).toBe(0);
    expect(await filesOf(acmeRecent)).toBe(2);
    expect(await filesOf(globexOld)).toBe(2);

    expect(await run(daysAfterStart(10))).toBe(1);
    expect(await filesOf(acmeRecent)).toBe(0);
    expect(await filesOf(globexOld)).toBe(2);

    expect(await run(daysAfterStart(31))).toBe(1);
    expect(await filesOf(globexOld)).toBe(0);
  });

  it('keeps a period stored outside the bounds within them (they were narrowed after it was set)', async () => {
    await database.db.update(organizations).set({ verificationRetentionDays: 3 }).where(eq(organizations.id, acme.id));
    const session = await sessionWithDocuments(daysAfterStart(0), 'verified');
    expect(await run(daysAfterStart(5))).toBe(0);
    expect(await run(daysAfterStart(7))).toBe(1);
    expect(await filesOf(session)).toBe(0);
  });

  it('erases the files and details of sessions final for 30 days, and keeps younger and open ones', async () => {
    const verified = await sessionWithDocuments(daysAfterStart(0), 'verified');
    const canceled = await sessionWithDocuments(daysAfterStart(0), 'canceled');
    const recent = await sessionWithDocuments(daysAfterStart(2), 'rejected');
    const processing = await sessionWithDocuments(daysAfterStart(0), 'processing');
    const pending = await sessionWithDocuments(daysAfterStart(0), 'pending');
    for (const id of [verified, canceled, recent, processing, pending]) expect(await filesOf(id)).toBeGreaterThan(0);
    expect((await rowOf(verified)).hasDetails).toBe(true);

    const now = daysAfterStart(31);
    expect(await run(now)).toBe(2);

    // 31 days after their final status: nothing left in the folder, the rows say so.
    for (const id of [verified, canceled]) {
      expect(await filesOf(id)).toBe(0);
      const row = await rowOf(id);
      expect(row).toEqual({ erasedAt: now, hasDetails: false, documentsErased: [now, now] });
    }
    // Final 29 days ago, or never final: everything stays.
    for (const id of [recent, processing, pending]) {
      expect(await filesOf(id)).toBe(2);
      expect((await rowOf(id)).erasedAt).toBeNull();
    }
    expect((await rowOf(recent)).hasDetails).toBe(true);
    expect((await rowOf(processing)).hasDetails).toBe(true);

    // Nothing more is due until the recent one reaches 30 days; then only it.
    expect(await run(daysAfterStart(31))).toBe(0);
    expect(await run(daysAfterStart(32))).toBe(1);
    expect(await filesOf(recent)).toBe(0);
    expect((await rowOf(verified)).erasedAt).toEqual(now);
  });

  it('counts from the final status, to the millisecond, and honours a retention of 7 days', async () => {
    const finished = await sessionWithDocuments(daysAfterStart(0), 'expired');
    expect(await run(new Date(daysAfterStart(7).getTime() - 1), 7)).toBe(0);
    expect(await filesOf(finished)).toBe(2);
    expect(await run(daysAfterStart(7), 7)).toBe(1);
    expect(await filesOf(finished)).toBe(0);
  });

  it('passes over sessions with nothing to erase and those already erased on request', async () => {
    clock.set(daysAfterStart(0));
    const empty = await createdSessionId(app, acme.testKey);
    await unitOfWork(database.db, (work) =>
      moveSession(work, { sessionId: empty, to: 'canceled', actor: 'test', now: daysAfterStart(0) }, {}),
    );
    const requested = await sessionWithDocuments(daysAfterStart(0), 'verified');
    await erasePersonalData(database.db, vault, { sessionId: requested, now: daysAfterStart(1) });

    expect(await run(daysAfterStart(40))).toBe(0);
    expect((await rowOf(empty)).erasedAt).toBeNull();
    expect((await rowOf(requested)).erasedAt).toEqual(daysAfterStart(1));
  });

  it("erases a consent's IP address and user agent, and a kept draft, also on a session with nothing else", async () => {
    clock.set(daysAfterStart(0));
    const agreedOnly = await createdSessionId(app, acme.testKey);
    const draftOnly = await createdSessionId(app, acme.testKey);
    const withDocuments = await sessionWithDocuments(daysAfterStart(0), 'verified');
    const agreedAt = daysAfterStart(0);
    for (const sessionId of [agreedOnly, withDocuments]) {
      await database.db.insert(verificationConsents).values({
        sessionId,
        textVersion: 'consent-2026-11',
        locale: 'sw',
        ip: '2001:db8::7',
        userAgent: 'Phone browser',
        createdAt: agreedAt,
      });
    }
    // A capture form whose every file was refused keeps the typed details, sealed, and no document.
    await database.db
      .update(verificationSessions)
      .set({ hostedPageDraft: 'sealed-draft' })
      .where(eq(verificationSessions.id, draftOnly));
    for (const sessionId of [agreedOnly, draftOnly]) {
      await unitOfWork(database.db, (work) =>
        moveSession(work, { sessionId, to: 'canceled', actor: 'test', now: daysAfterStart(0) }, {}),
      );
    }

    const now = daysAfterStart(31);
    expect(await run(now)).toBe(3);
    const consents = await database.db
      .select({
        sessionId: verificationConsents.sessionId,
        textVersion: verificationConsents.textVersion,
        locale: verificationConsents.locale,
        ip: verificationConsents.ip,
        userAgent: verificationConsents.userAgent,
        createdAt: verificationConsents.createdAt,
      })
      .from(verificationConsents);
    const erasedConsent = {
      textVersion: 'consent-2026-11',
      locale: 'sw',
      ip: null,
      userAgent: null,
      createdAt: agreedAt,
    };
    expect(consents).toHaveLength(2);
    expect(consents).toEqual(
      expect.arrayContaining([
        { sessionId: agreedOnly, ...erasedConsent },
        { sessionId: withDocuments, ...erasedConsent },
      ]),
    );
    for (const sessionId of [agreedOnly, draftOnly, withDocuments]) {
      expect((await rowOf(sessionId)).erasedAt).toEqual(now);
    }
    const [draft] = await database.db
      .select({ draft: verificationSessions.hostedPageDraft })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, draftOnly));
    expect(draft?.draft).toBeNull();
    expect(await run(daysAfterStart(32))).toBe(0);
  });

  it('works in batches; two runs at once erase each session once, without an error', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push(await sessionWithDocuments(daysAfterStart(0), 'verified'));
    const now = daysAfterStart(31);
    expect(await run(now, 30, { batchSize: 2 })).toBe(2);

    const errors: unknown[] = [];
    const logger: RetentionLogger = { error: (details) => errors.push(details), info: () => {}, debug: () => {} };
    const schedules = [0, 1].map(() =>
      startDocumentRetention({
        db: database.db,
        vault,
        now: () => now,
        intervalMs: 60 * 60 * 1000,
        retention: BOUNDS,
        batchSize: 1,
        logger,
      }),
    );
    try {
      const counts = await Promise.all(schedules.map((schedule) => schedule.runNow()));
      expect(counts[0]! + counts[1]!).toBe(4);
    } finally {
      await Promise.all(schedules.map((schedule) => schedule.stop()));
    }
    expect(errors).toEqual([]);
    for (const id of ids) {
      expect(await filesOf(id)).toBe(0);
      expect((await rowOf(id)).erasedAt).toEqual(now);
    }
  });

  it('logs a session whose files cannot be erased, passes over it and erases the others', async () => {
    const broken = await sessionWithDocuments(daysAfterStart(0), 'verified');
    const healthy = await sessionWithDocuments(daysAfterStart(0), 'rejected');
    const failing: DocumentVault = {
      ...vault,
      eraseAll: async (prefix) => {
        if (prefix.includes(broken)) throw new Error('storage unavailable');
        await vault.eraseAll(prefix);
      },
    };
    const errors: Array<Record<string, unknown>> = [];
    const infos: Array<Record<string, unknown>> = [];
    const logger: RetentionLogger = {
      error: (details) => errors.push(details as Record<string, unknown>),
      info: (details) => infos.push(details as Record<string, unknown>),
      debug: () => {},
    };
    const schedule = startDocumentRetention({
      db: database.db,
      vault: failing,
      now: () => daysAfterStart(31),
      intervalMs: 60 * 60 * 1000,
      retention: BOUNDS,
      logger,
    });
    try {
      expect(await schedule.runNow()).toBe(1);
    } finally {
      await schedule.stop();
    }
    expect(errors.map((entry) => entry.sessionId)).toEqual([broken]);
    expect(infos).toEqual([{ erased: 1, failed: 1 }]);
    expect(await filesOf(healthy)).toBe(0);
    expect(await filesOf(broken)).toBe(2);
    expect((await rowOf(broken)).erasedAt).toBeNull();
  });

  it('the app runs the job on its interval with its clock and VERIFICATION_RETENTION_DAYS, and not at 0', async () => {
    const finished = await sessionWithDocuments(daysAfterStart(0), 'verified');
    // The suite's app has VERIFICATION_RETENTION_INTERVAL_MS=0: long past the retention, it erases nothing.
    clock.set(daysAfterStart(40));
    await quietPeriod();
    expect(await filesOf(finished)).toBe(2);

    clock.set(daysAfterStart(6));
    const withJob = await buildTestApp(database.handle, {
      now: clock.now,
      vault,
      env: { VERIFICATION_RETENTION_INTERVAL_MS: '20', VERIFICATION_RETENTION_DAYS: '7' },
    });
    try {
      // Every 20 ms on the app's clock, which has not reached 7 days after the final status: the files stay.
      await quietPeriod();
      expect(await filesOf(finished)).toBe(2);
      clock.set(daysAfterStart(7));
      await eventually(async () => (await filesOf(finished)) === 0, { what: 'The retention job erasing the files' });
      await eventually(async () => (await rowOf(finished)).erasedAt !== null, { what: 'The session marked erased' });
    } finally {
      await withJob.close();
    }
  });
});
