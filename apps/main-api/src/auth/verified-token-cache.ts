import type { JWTPayload } from 'jose';

/** Checks a token's signature and claims at `currentDate`; rejects when it is not acceptable. */
export type PayloadVerifier = (token: string, currentDate: Date) => Promise<JWTPayload>;

export interface VerifiedTokenCacheOptions {
  /** How long a verified signature is trusted without checking it again (a key removed from the JWKS stops working after at most this). */
  maxAgeMs: number;
  maxEntries: number;
  /** The verifier's allowance for clock drift, applied to `exp` and `nbf` exactly as on a full check. */
  clockToleranceSeconds: number;
}

interface Entry {
  payload: JWTPayload;
  verifiedAt: number;
}

/**
 * Remembers tokens whose signature and claims were verified, for `maxAgeMs`: a client sends the same token
 * on every request, and checking its signature was the largest part of a request's CPU time after the
 * database (docs/benchmarks.md#token-verification-get-v1accountsme). A remembered token still has its `exp`
 * and `nbf` checked against the current time on every use; when they fail, or the entry is too old, the token
 * is verified in full again, so the answer (and its error) is the full check's. Refusals are never remembered.
 */
export function rememberVerifiedTokens(verify: PayloadVerifier, options: VerifiedTokenCacheOptions): PayloadVerifier {
  const entries = new Map<string, Entry>();
  const tolerance = options.clockToleranceSeconds;

  return async (token, currentDate) => {
    const now = currentDate.getTime();
    const entry = entries.get(token);
    if (entry !== undefined) {
      const seconds = Math.floor(now / 1000);
      const { exp, nbf } = entry.payload;
      const fresh = now >= entry.verifiedAt && now - entry.verifiedAt <= options.maxAgeMs;
      const timely =
        typeof exp === 'number' && exp > seconds - tolerance && (nbf === undefined || nbf <= seconds + tolerance);
      if (fresh && timely) return entry.payload;
      entries.delete(token);
    }
    const payload = await verify(token, currentDate);
    if (entries.size >= options.maxEntries) {
      // Maps keep insertion order: the first key is the oldest entry.
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    }
    entries.set(token, { payload, verifiedAt: now });
    return payload;
  };
}
