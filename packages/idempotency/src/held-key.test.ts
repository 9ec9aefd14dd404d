import type { DatabaseHandle } from '@platform/db';
import { idempotencyRecords } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { isAppError } from '@platform/errors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimTiming } from './claim.js';
import { runOnceForKey } from './held-key.js';
import { findRecord } from './repository.js';

const timing = (): ClaimTiming => ({
  now: new Date(),
  ttlMs: 24 * 60 * 60 * 1000,
  lockTimeoutMs: 60 * 1000,
  retryAfterSeconds: 1,
});
const request = { scope: 'dashboard:user:u1:organization:o1', key: 'form-1', fingerprint: 'POST /form aaa' };
/** A form's outcome as the dashboard stores it: done, and the page it sent the browser to. */
const redirect = (location: string) => ({ statusCode: 200, body: { location }, headers: {} });

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  return 'ran';
}

describe('runOnceForKey', () => {
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

  it('runs once and answers a later request with the stored answer', async () => {
    let runs = 0;
    const work = async () => {
      runs += 1;
      return redirect(`/checkout/${runs}`);
    };
    const first = await runOnceForKey(handle.db, request, timing(), work);
    const second = await runOnceForKey(handle.db, request, timing(), work);
    expect(first).toEqual({ response: redirect('/checkout/1'), replayed: false });
    expect(second).toEqual({ response: redirect('/checkout/1'), replayed: true });
    expect(runs).toBe(1);
    expect(await codeOf(runOnceForKey(handle.db, { ...request, fingerprint: 'POST /form bbb' }, timing(), work))).toBe(
      'idempotency_key_reused',
    );
  });

  it('refuses a request sent while the first runs, and runs nothing for it', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const work = async () => {
      runs += 1;
      await held;
      return redirect('/done');
    };
    const first = runOnceForKey(handle.db, request, timing(), work);
    // The first holds the key once its record exists.
    for (let tries = 0; (await findRecord(handle.db, request)) === undefined; tries += 1) {
      if (tries > 1000) throw new Error('the first request never claimed the key');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await codeOf(runOnceForKey(handle.db, request, timing(), work))).toBe('idempotency_key_in_use');
    release();
    expect((await first).replayed).toBe(false);
    expect(runs).toBe(1);
  });

  it('gives the key up after a throw or a refusal, so a retry runs again', async () => {
    const thrown = runOnceForKey(handle.db, request, timing(), () => Promise.reject(new Error('provider down')));
    await expect(thrown).rejects.toThrow('provider down');
    expect(await findRecord(handle.db, request)).toBeUndefined();
    const refused = await runOnceForKey(handle.db, request, timing(), async () => ({
      statusCode: 400,
      body: null,
      headers: {},
    }));
    expect(refused.replayed).toBe(false);
    expect(await findRecord(handle.db, request)).toBeUndefined();
    const retried = await runOnceForKey(handle.db, request, timing(), async () => redirect('/ok'));
    expect(retried).toEqual({ response: redirect('/ok'), replayed: false });
  });
});
