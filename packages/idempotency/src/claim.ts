import type { Database } from '@platform/db';
import { idempotencyKeyInUse, idempotencyKeyReused } from '@platform/errors';
import {
  findRecord,
  insertClaim,
  type KeyClaim,
  type StoredResponse,
  takeOverAbandoned,
  takeOverExpired,
} from './repository.js';

export interface ClaimTiming {
  now: Date;
  /** How long a stored answer is replayed (24 h). */
  ttlMs: number;
  /** After how long without an answer a claim counts as abandoned (60 s). */
  lockTimeoutMs: number;
  /** The Retry-After of the 409 while the first request runs. */
  retryAfterSeconds: number;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: KeyClaim; tookOver: 'expired' | 'abandoned' | false }
  | { kind: 'replay'; response: StoredResponse };

// Each lost race means another request changed the record in between; a few rounds settle any realistic
// contention, and a client that still loses gets the same 409 as for a running request.
const MAX_ROUNDS = 5;

/**
 * Decides what a request carrying an idempotency key does: run (it now owns the key), replay the stored
 * answer, or fail with 422 (same key, another request) or 409 (the first request still runs).
 * Every write is conditional, so concurrent requests with one key cannot both end up owning it.
 */
export async function claimIdempotencyKey(
  db: Database,
  request: { scope: string; key: string; fingerprint: string },
  timing: ClaimTiming,
): Promise<ClaimOutcome> {
  const { now, ttlMs, lockTimeoutMs, retryAfterSeconds } = timing;
  const claim: KeyClaim = { ...request, lockedAt: now };
  const expiresAt = new Date(now.getTime() + ttlMs);

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if (await insertClaim(db, claim, expiresAt)) return { kind: 'claimed', claim, tookOver: false };

    const record = await findRecord(db, claim);
    if (record === undefined) continue; // released between the two statements: claim it again

    if (record.expiresAt.getTime() <= now.getTime()) {
      if (await takeOverExpired(db, claim, expiresAt)) return { kind: 'claimed', claim, tookOver: 'expired' };
      continue;
    }
    if (record.fingerprint !== request.fingerprint) throw idempotencyKeyReused();
    if (record.status === 'completed') {
      return {
        kind: 'replay',
        response: {
          statusCode: record.responseStatus ?? 200,
          body: record.responseBody,
          headers: record.responseHeaders ?? {},
        },
      };
    }
    const staleBefore = new Date(now.getTime() - lockTimeoutMs);
    if (record.lockedAt.getTime() > staleBefore.getTime()) throw idempotencyKeyInUse(retryAfterSeconds);
    if (await takeOverAbandoned(db, claim, staleBefore)) return { kind: 'claimed', claim, tookOver: 'abandoned' };
  }
  throw idempotencyKeyInUse(retryAfterSeconds);
}
