import { idempotencyRecords } from '@platform/db/schema';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// Only the purge may tick while the timers are moved: the payment jobs are off.
const quietJobs = { PAYMENT_RECONCILE_INTERVAL_MS: '0', RENEWAL_INTERVAL_MS: '0' };

describe('purging expired billing idempotency keys (IDEMPOTENCY_PURGE_INTERVAL_MS)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    vi.useRealTimers();
  });

  async function startWithExpiredKey(env: NodeJS.ProcessEnv): Promise<TestApp> {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = await createTestApp({ env: { ...quietJobs, ...env } });
    const past = new Date(Date.now() - 25 * HOUR);
    await app.db.insert(idempotencyRecords).values({
      scope: 'user:user_purge:organization:00000000-0000-4000-8000-000000000000',
      key: 'expired-key',
      fingerprint: 'POST /v1/billing/pay',
      status: 'in_progress',
      lockedAt: past,
      createdAt: past,
      expiresAt: new Date(past.getTime() + 24 * HOUR),
    });
    return app;
  }

  it('runs every configured interval, not before', async () => {
    t = await startWithExpiredKey({ IDEMPOTENCY_PURGE_INTERVAL_MS: String(10 * MINUTE) });
    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1);
    expect(await t.db.$count(idempotencyRecords)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(async () => expect(await t?.db.$count(idempotencyRecords)).toBe(0), {
      timeout: EVENTUALLY_TIMEOUT_MS,
    });
  });

  it('never runs on an instance configured with 0, leaving it to the others', async () => {
    t = await startWithExpiredKey({ IDEMPOTENCY_PURGE_INTERVAL_MS: '0' });
    await vi.advanceTimersByTimeAsync(48 * HOUR);
    expect(await t.db.$count(idempotencyRecords)).toBe(1);
  });
});
