import { describe, expect, it } from 'vitest';
import { createAccessTokenCache } from './access-token.js';

describe('createAccessTokenCache', () => {
  it('fetches once for simultaneous callers and again shortly before expiry', async () => {
    let clock = Date.parse('2024-01-01T00:00:00Z');
    let fetches = 0;
    const cache = createAccessTokenCache(
      async () => {
        fetches += 1;
        return { value: `token-${fetches}`, expiresAt: new Date(clock + 3_600_000) };
      },
      { now: () => new Date(clock), refreshMarginMs: 60_000 },
    );
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual(['token-1', 'token-1', 'token-1']);
    clock += 3_600_000 - 60_001;
    expect(await cache.get()).toBe('token-1');
    clock += 1;
    expect(await cache.get()).toBe('token-2');
    cache.invalidate();
    expect(await cache.get()).toBe('token-3');
    expect(fetches).toBe(3);
  });

  it('does not keep a failed fetch', async () => {
    let attempt = 0;
    const cache = createAccessTokenCache(
      async () => {
        attempt += 1;
        if (attempt === 1) throw new Error('unreachable');
        return { value: 'fresh', expiresAt: new Date(Date.now() + 3_600_000) };
      },
      { now: () => new Date(), refreshMarginMs: 60_000 },
    );
    await expect(cache.get()).rejects.toThrow('unreachable');
    expect(await cache.get()).toBe('fresh');
  });
});
