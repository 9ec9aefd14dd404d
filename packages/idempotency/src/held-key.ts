import type { Database } from '@platform/db';
import { type ClaimTiming, claimIdempotencyKey } from './claim.js';
import { completeRecord, releaseClaim, type StoredResponse, serializedResponse } from './repository.js';

// A key held outside the plugin (docs/decisions.md#a-form-key-held-while-its-post-runs): for a request whose key is
// not a header but part of what it sends, as a dashboard form's hidden key. The same records and rules as the
// plugin's, so two posts of one form at the same instant cannot both run.

export interface HeldKeyRequest {
  scope: string;
  key: string;
  fingerprint: string;
}

/**
 * Runs `work` once for the key: the first request claims it and runs; one sent while it runs gets 409
 * `idempotency_key_in_use`, one sent after it the answer it stored (`replayed`), and one with the same key and
 * other content 422. A 2xx answer is stored (as the plugin stores only those: docs/decisions.md#only-2xx-answers-are-replayed);
 * any other, or a throw, gives the key up, so a retry runs again.
 */
export async function runOnceForKey(
  db: Database,
  request: HeldKeyRequest,
  timing: ClaimTiming,
  work: () => Promise<StoredResponse>,
): Promise<{ response: StoredResponse; replayed: boolean }> {
  const outcome = await claimIdempotencyKey(db, request, timing);
  if (outcome.kind === 'replay') return { response: outcome.response, replayed: true };
  let response: StoredResponse;
  try {
    response = await work();
  } catch (error) {
    await releaseClaim(db, outcome.claim);
    throw error;
  }
  if (response.statusCode >= 200 && response.statusCode < 300)
    await completeRecord(db, outcome.claim, serializedResponse(response));
  else await releaseClaim(db, outcome.claim);
  return { response, replayed: false };
}
