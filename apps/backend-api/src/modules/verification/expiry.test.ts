import { verificationSessions } from '@platform/db/schema';
import { captureHold } from '@platform/ledger';
import { holdReferenceOf } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventually, quietPeriod } from '#test-timing';
import {
  buildTestApp,
  replaceOrganizations,
  TEST_START,
  type TestOrganization,
  useTestApp,
} from '../../../test/app-fixtures.js';
import {
  createdSessionId,
  eventTypesOf,
  fundWallet,
  holdMovements,
  statusOf,
  transitionsOf,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';
import { type ExpiryLogger, expireDueSessions, startSessionExpiry } from './expiry.js';

const HOUR = 60 * 60 * 1000;

describe('session expiry', () => {
  const suite = useTestApp();
  const { clock } = suite;
  let acme: TestOrganization;

  beforeEach(async () => {
    clock.set(TEST_START);
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'live', 1_000);
  });

  const expireAt = (at: Date, batchSize?: number) =>
    expireDueSessions(suite.db, at, batchSize === undefined ? {} : { batchSize });
  const setStatus = (id: string, status: 'processing' | 'requires_input') =>
    suite.db.update(verificationSessions).set({ status }).where(eq(verificationSessions.id, id));

  it('expires a pending session 24 hours after creation, not a moment before, and releases its hold', async () => {
    const id = await createdSessionId(suite.app, acme.liveKey);
    const created = clock.now().getTime();

    expect(await expireAt(new Date(created + 24 * HOUR - 1))).toBe(0);
    expect(await statusOf(suite.db, id)).toBe('pending');
    expect((await walletState(suite.db, acme.id, 'live')).held).toBe(50);

    expect(await expireAt(new Date(created + 24 * HOUR))).toBe(1);
    expect(await statusOf(suite.db, id)).toBe('expired');
    expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
    expect(await walletState(suite.db, acme.id, 'live')).toEqual({
      available: 1_000,
      held: 0,
      ledger: { available: 1_000, held: 0 },
    });
    expect((await transitionsOf(suite.db, id)).at(-1)).toEqual({ from: 'pending', to: 'expired', actor: 'expiry_job' });
    expect(await eventTypesOf(suite.db, id)).toEqual(['verification_session.created', 'verification_session.expired']);

    // Nothing left to do: a second run changes nothing.
    expect(await expireAt(new Date(created + 48 * HOUR))).toBe(0);
    expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
  });

  it('expires sessions awaiting input, but never one being processed', async () => {
    const waiting = await createdSessionId(suite.app, acme.liveKey);
    const processing = await createdSessionId(suite.app, acme.liveKey);
    await setStatus(waiting, 'requires_input');
    await setStatus(processing, 'processing');
    expect(await expireAt(new Date(clock.now().getTime() + 25 * HOUR))).toBe(1);
    expect(await statusOf(suite.db, waiting)).toBe('expired');
    expect(await statusOf(suite.db, processing)).toBe('processing');
  });

  it('works in batches of the given size', async () => {
    const ids = [];
    for (let index = 0; index < 5; index += 1) ids.push(await createdSessionId(suite.app, acme.liveKey));
    const later = new Date(clock.now().getTime() + 25 * HOUR);
    expect(await expireAt(later, 2)).toBe(2);
    expect(await expireAt(later, 2)).toBe(2);
    expect(await expireAt(later, 2)).toBe(1);
    for (const id of ids) expect(await statusOf(suite.db, id)).toBe('expired');
  });

  /** Records what the job logs at error level. */
  function recordingLogger() {
    const errors: Array<{ details: Record<string, unknown>; message: string }> = [];
    const logger: ExpiryLogger & { info(): void } = {
      error: (details, message) => errors.push({ details: details as Record<string, unknown>, message }),
      info: () => {},
    };
    return { logger, errors };
  }

  /**
   * The oldest due session, whose hold was captured behind the lifecycle's back: releasing it on expiry throws
   * (the ledger refuses to resolve a hold twice), so that session cannot be expired.
   */
  async function sessionThatCannotExpire() {
    const id = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'broken' });
    await suite.db.transaction((tx) =>
      captureHold(tx, { organizationId: acme.id, environment: 'live' }, holdReferenceOf(id)),
    );
    return id;
  }

  it('logs a session that cannot be expired and passes over it, so the rest of the batch and later runs proceed', async () => {
    const broken = await sessionThatCannotExpire();
    clock.advance(60 * 1000);
    const healthy = [await createdSessionId(suite.app, acme.liveKey), await createdSessionId(suite.app, acme.liveKey)];
    const later = new Date(clock.now().getTime() + 25 * HOUR);
    const { logger, errors } = recordingLogger();

    expect(await expireDueSessions(suite.db, later, { logger, batchSize: 1 })).toBe(1);
    expect(await expireDueSessions(suite.db, later, { logger, batchSize: 1 })).toBe(1);
    for (const id of healthy) {
      expect(await statusOf(suite.db, id)).toBe('expired');
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
    }
    // The broken one was tried first each time, rolled back and left as it was.
    expect(errors.map((entry) => [entry.message, entry.details.sessionId])).toEqual([
      ['Could not expire a verification session; passing over it', broken],
      ['Could not expire a verification session; passing over it', broken],
    ]);
    expect(String(errors[0]!.details.err)).toContain('has already been resolved');
    expect(await statusOf(suite.db, broken)).toBe('pending');
    expect(await holdMovements(suite.db, broken)).toEqual(['capture', 'hold']);
    expect(await transitionsOf(suite.db, broken)).toEqual([
      { from: null, to: 'pending', actor: `api_key:${acme.liveKeyId}` },
    ]);
    const wallet = await walletState(suite.db, acme.id, 'live');
    expect(wallet).toEqual({ available: 950, held: 0, ledger: { available: 950, held: 0 } });

    // A later run still does not fail: it has nothing else to expire.
    expect(await expireDueSessions(suite.db, later, { logger })).toBe(0);
    expect(errors).toHaveLength(3);
  });

  it('a scheduled run tries a failing session once, expires every other one, and does not fail', async () => {
    const broken = await sessionThatCannotExpire();
    clock.advance(60 * 1000);
    for (let index = 0; index < 3; index += 1) await createdSessionId(suite.app, acme.liveKey);
    clock.advance(24 * HOUR);
    const { logger, errors } = recordingLogger();
    const schedule = startSessionExpiry({
      db: suite.db,
      now: clock.now,
      intervalMs: 60 * 60 * 1000,
      batchSize: 2,
      logger,
    });
    try {
      expect(await schedule.runNow()).toBe(3);
      expect(errors.map((entry) => entry.details.sessionId)).toEqual([broken]);
      expect(await schedule.runNow()).toBe(0);
      expect(errors.map((entry) => entry.details.sessionId)).toEqual([broken, broken]);
    } finally {
      await schedule.stop();
    }
  });

  it('takes the lifetime from VERIFICATION_SESSION_TTL_HOURS', async () => {
    const shortLived = await buildTestApp(suite.handle, {
      now: clock.now,
      env: { VERIFICATION_SESSION_TTL_HOURS: '2' },
    });
    try {
      const id = await createdSessionId(shortLived, acme.liveKey);
      const [session] = await suite.db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
      expect(session?.expiresAt).toEqual(new Date(clock.now().getTime() + 2 * HOUR));
      expect(await expireAt(new Date(clock.now().getTime() + 2 * HOUR))).toBe(1);
    } finally {
      await shortLived.close();
    }
  });

  it('a schedule runs every batch until nothing is due, and stops', async () => {
    for (let index = 0; index < 3; index += 1) await createdSessionId(suite.app, acme.liveKey);
    clock.advance(24 * HOUR);
    const schedule = startSessionExpiry({ db: suite.db, now: clock.now, intervalMs: 60 * 60 * 1000, batchSize: 2 });
    try {
      expect(await schedule.runNow()).toBe(3);
      expect(await schedule.runNow()).toBe(0);
    } finally {
      await schedule.stop();
    }
  });

  it('the app runs the job on its interval with its clock, and closes cleanly', async () => {
    const withJob = await buildTestApp(suite.handle, {
      now: clock.now,
      env: { VERIFICATION_EXPIRY_INTERVAL_MS: '20' },
    });
    try {
      const id = await createdSessionId(withJob, acme.liveKey);
      // The job runs every 20 ms on the app's clock, which has not reached the session's end: it stays pending.
      await quietPeriod();
      expect(await statusOf(suite.db, id)).toBe('pending');
      clock.advance(24 * HOUR);
      await eventually(async () => (await statusOf(suite.db, id)) === 'expired', { what: 'The session expiring' });
    } finally {
      await withJob.close();
    }
  });
});
