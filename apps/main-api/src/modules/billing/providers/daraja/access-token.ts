export interface AccessToken {
  value: string;
  expiresAt: Date;
}

export interface AccessTokenCache {
  /** A token valid for a while longer, fetched only when the cached one is about to expire. */
  get(): Promise<string>;
  /** Forgets the cached token (the provider refused it). */
  invalidate(): void;
}

/**
 * Caches an OAuth token until `refreshMarginMs` before it expires. Callers asking at the same time share
 * one fetch, so a burst of payments makes one token request.
 */
export function createAccessTokenCache(
  fetchToken: () => Promise<AccessToken>,
  options: { now: () => Date; refreshMarginMs: number },
): AccessTokenCache {
  let cached: AccessToken | undefined;
  let inFlight: Promise<AccessToken> | undefined;

  const fresh = (token: AccessToken | undefined): token is AccessToken =>
    token !== undefined && token.expiresAt.getTime() - options.refreshMarginMs > options.now().getTime();

  return {
    async get() {
      if (fresh(cached)) return cached.value;
      inFlight ??= fetchToken().finally(() => {
        inFlight = undefined;
      });
      cached = await inFlight;
      return cached.value;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
