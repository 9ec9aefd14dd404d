import type { DatabaseHandle } from '@platform/db';
import { idempotencyRecords } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { purgeExpiredIdempotencyRecords, startIdempotencyPurge } from './purge.js';

const HOUR = 60 * 60 * 1000;
const now = new Date('2026-03-02T09:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * HOUR);

describe('purging expired idempotency records', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.delete(idempotencyRecords);
  });

  /** A record created `ageHours` before now, kept for 24 hours. */
  async function recordAged(key: string, ageHours: number, status: 'in_progress' | 'completed' = 'completed') {
    const createdAt = hoursAgo(ageHours);
    await handle.db.insert(idempotencyRecords).values({
      scope: 'api_key:1',
      key,
      fingerprint: 'POST /v1/things x',
      status,
      lockedAt: createdAt,
      responseStatus: status === 'completed' ? 201 : null,
      responseBody: status === 'completed' ? { success: true } : null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * HOUR),
    });
  }

  const remainingKeys = async () =>
    (await handle.db.select({ key: idempotencyRecords.key }).from(idempotencyRecords)).map(({ key }) => key).sort();

  it('deletes the records older than 24 hours, completed or abandoned, and keeps the rest', async () => {
    await recordAged('fresh', 1);
    await recordAged('almost', 23.99);
    await recordAged('exactly-24h', 24);
    await recordAged('old', 25);
    await recordAged('old-abandoned', 30, 'in_progress');

    expect(await purgeExpiredIdempotencyRecords(handle.db, now)).toBe(3);
    expect(await remainingKeys()).toEqual(['almost', 'fresh']);
  });

  it('works through more expired records than one batch holds', async () => {
    for (let index = 0; index < 7; index += 1) await recordAged(`old-${index}`, 25 + index);
    await recordAged('fresh', 2);
    expect(await purgeExpiredIdempotencyRecords(handle.db, now, { batchSize: 3 })).toBe(7);
    expect(await remainingKeys()).toEqual(['fresh']);
  });

  it('runs on a timer with the injected clock, and stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let clock = hoursAgo(2);
      await recordAged('old', 25);
      await recordAged('fresh', 1);
      const schedule = startIdempotencyPurge({ db: handle.db, now: () => clock, intervalMs: HOUR });

      // Two hours ago even `old` had an hour left; at now it is past its 24 hours.
      expect(await schedule.runNow()).toBe(0);
      clock = now;
      await vi.advanceTimersByTimeAsync(HOUR);
      await vi.waitFor(async () => expect(await remainingKeys()).toEqual(['fresh']), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });

      await schedule.stop();
      clock = new Date(now.getTime() + 48 * HOUR);
      await vi.advanceTimersByTimeAsync(2 * HOUR);
      expect(await remainingKeys()).toEqual(['fresh']);
    } finally {
      vi.useRealTimers();
    }
  });
});
