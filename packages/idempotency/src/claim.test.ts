import type { DatabaseHandle } from '@platform/db';
import { idempotencyRecords } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { type AppError, isAppError } from '@platform/errors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ClaimTiming, claimIdempotencyKey } from './claim.js';
import { completeRecord, findRecord, type KeyClaim, releaseClaim, serializedResponse } from './repository.js';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const start = new Date('2026-03-02T09:00:00.000Z');
const at = (offsetMs: number): ClaimTiming => ({
  now: new Date(start.getTime() + offsetMs),
  ttlMs: 24 * HOUR,
  lockTimeoutMs: 60 * SECOND,
  retryAfterSeconds: 1,
});

const request = { scope: 'api_key:1', key: 'order-42', fingerprint: 'POST /v1/things aaa' };
const answer = {
  statusCode: 201,
  body: { success: true, data: { id: 'thing_1' } },
  headers: { location: '/v1/things/thing_1' },
};

async function failure(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('Expected the claim to fail');
}

async function claimed(work: ReturnType<typeof claimIdempotencyKey>): Promise<KeyClaim> {
  const outcome = await work;
  if (outcome.kind !== 'claimed') throw new Error(`Expected a claim, got ${outcome.kind}`);
  return outcome.claim;
}

describe('claimIdempotencyKey', () => {
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

  it('claims a new key with an in-progress record that expires after 24 hours', async () => {
    const outcome = await claimIdempotencyKey(handle.db, request, at(0));
    expect(outcome).toEqual({ kind: 'claimed', claim: { ...request, lockedAt: start }, tookOver: false });
    const record = await findRecord(handle.db, request);
    expect(record).toMatchObject({ status: 'in_progress', lockedAt: start, createdAt: start });
    expect(record?.expiresAt.toISOString()).toBe('2026-03-03T09:00:00.000Z');
  });

  it('answers 409 with Retry-After while the first request runs', async () => {
    await claimIdempotencyKey(handle.db, request, at(0));
    const error = await failure(claimIdempotencyKey(handle.db, request, at(59 * SECOND)));
    expect(error.code).toBe('idempotency_key_in_use');
    expect(error.statusCode).toBe(409);
    expect(error.headers).toEqual({ 'Retry-After': '1' });
  });

  it('answers 422 for the same key with another request, running or completed', async () => {
    const claim = await claimed(claimIdempotencyKey(handle.db, request, at(0)));
    const other = { ...request, fingerprint: 'POST /v1/things bbb' };
    expect((await failure(claimIdempotencyKey(handle.db, other, at(SECOND)))).code).toBe('idempotency_key_reused');
    await completeRecord(handle.db, claim, serializedResponse(answer));
    const error = await failure(claimIdempotencyKey(handle.db, other, at(2 * SECOND)));
    expect(error.statusCode).toBe(422);
  });

  it('replays the stored answer until the 24 hours are over', async () => {
    const claim = await claimed(claimIdempotencyKey(handle.db, request, at(0)));
    expect(await completeRecord(handle.db, claim, serializedResponse(answer))).toBe(true);
    expect(await claimIdempotencyKey(handle.db, request, at(24 * HOUR - 1))).toEqual({
      kind: 'replay',
      response: answer,
    });
  });

  it('treats a record whose 24 hours are over as absent', async () => {
    const claim = await claimed(claimIdempotencyKey(handle.db, request, at(0)));
    await completeRecord(handle.db, claim, serializedResponse(answer));
    const later = at(24 * HOUR);
    const other = { ...request, fingerprint: 'POST /v1/things bbb' };
    const outcome = await claimIdempotencyKey(handle.db, other, later);
    expect(outcome).toMatchObject({ kind: 'claimed', tookOver: 'expired' });
    expect(await findRecord(handle.db, request)).toMatchObject({
      status: 'in_progress',
      fingerprint: other.fingerprint,
      responseStatus: null,
      responseBody: null,
      lockedAt: later.now,
    });
  });

  it('takes over a claim left unanswered for 60 seconds, and not a moment earlier', async () => {
    const first = await claimed(claimIdempotencyKey(handle.db, request, at(0)));
    expect((await failure(claimIdempotencyKey(handle.db, request, at(60 * SECOND - 1)))).statusCode).toBe(409);

    const second = await claimed(claimIdempotencyKey(handle.db, request, at(60 * SECOND)));
    expect(second.lockedAt).toEqual(at(60 * SECOND).now);

    // The first owner comes back: it can neither store its answer nor release the new owner's claim.
    expect(await completeRecord(handle.db, first, serializedResponse(answer))).toBe(false);
    expect(await releaseClaim(handle.db, first)).toBe(false);
    expect(await completeRecord(handle.db, second, serializedResponse(answer))).toBe(true);
    expect(await claimIdempotencyKey(handle.db, request, at(61 * SECOND))).toMatchObject({ kind: 'replay' });
  });

  it('lets the key be claimed again once it is released', async () => {
    const claim = await claimed(claimIdempotencyKey(handle.db, request, at(0)));
    expect(await releaseClaim(handle.db, claim)).toBe(true);
    expect(await findRecord(handle.db, request)).toBeUndefined();
    expect(await claimIdempotencyKey(handle.db, request, at(SECOND))).toMatchObject({
      kind: 'claimed',
      tookOver: false,
    });
  });

  it('keeps keys of different scopes apart', async () => {
    await claimIdempotencyKey(handle.db, request, at(0));
    const otherScope = { ...request, scope: 'api_key:2', fingerprint: 'POST /v1/things bbb' };
    expect(await claimIdempotencyKey(handle.db, otherScope, at(0))).toMatchObject({ kind: 'claimed' });
  });
});
