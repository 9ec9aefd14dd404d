import type { JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { type PayloadVerifier, rememberVerifiedTokens } from './verified-token-cache.js';

const T0 = new Date('2026-03-02T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** A verifier that accepts tokens named in `payloads` (checking exp like jose) and counts its calls. */
function countingVerifier(payloads: Record<string, JWTPayload>) {
  const calls: string[] = [];
  const verify: PayloadVerifier = async (token, currentDate) => {
    calls.push(token);
    const payload = payloads[token];
    if (payload === undefined) throw new Error('signature verification failed');
    if (typeof payload.exp === 'number' && payload.exp <= epoch(currentDate) - 5)
      throw new Error('"exp" claim timestamp check failed');
    return payload;
  };
  return { verify, calls };
}

const options = { maxAgeMs: 60_000, maxEntries: 3, clockToleranceSeconds: 5 };

describe('rememberVerifiedTokens', () => {
  it('checks a token once and answers its repeats from memory', async () => {
    const payload = { sub: 'user_1', exp: epoch(at(3600)) };
    const { verify, calls } = countingVerifier({ a: payload });
    const remembered = rememberVerifiedTokens(verify, options);
    expect(await remembered('a', at(0))).toEqual(payload);
    expect(await remembered('a', at(10))).toEqual(payload);
    expect(await remembered('a', at(59))).toEqual(payload);
    expect(calls).toEqual(['a']);
  });

  it('checks a remembered token in full again once it expires, and gives the full check’s refusal', async () => {
    const { verify, calls } = countingVerifier({ a: { sub: 'user_1', exp: epoch(at(30)) } });
    const remembered = rememberVerifiedTokens(verify, options);
    await remembered('a', at(0));
    await expect(remembered('a', at(34))).resolves.toMatchObject({ sub: 'user_1' });
    await expect(remembered('a', at(35))).rejects.toThrow('"exp" claim timestamp check failed');
    expect(calls).toEqual(['a', 'a']);
  });

  it('honours nbf with the same tolerance', async () => {
    const { verify, calls } = countingVerifier({ a: { sub: 'user_1', nbf: epoch(at(0)), exp: epoch(at(3600)) } });
    const remembered = rememberVerifiedTokens(verify, options);
    await remembered('a', at(0));
    // The clock moved back past nbf and its tolerance: the full check decides.
    await remembered('a', at(-6));
    expect(calls).toEqual(['a', 'a']);
  });

  it('trusts a verified signature for maxAgeMs only', async () => {
    const { verify, calls } = countingVerifier({ a: { sub: 'user_1', exp: epoch(at(3600)) } });
    const remembered = rememberVerifiedTokens(verify, options);
    await remembered('a', at(0));
    await remembered('a', at(60));
    await remembered('a', at(61));
    expect(calls).toEqual(['a', 'a']);
  });

  it('never remembers a refusal', async () => {
    const { verify, calls } = countingVerifier({});
    const remembered = rememberVerifiedTokens(verify, options);
    await expect(remembered('forged', at(0))).rejects.toThrow('signature verification failed');
    await expect(remembered('forged', at(1))).rejects.toThrow('signature verification failed');
    expect(calls).toEqual(['forged', 'forged']);
  });

  it('keeps at most maxEntries tokens, forgetting the oldest first', async () => {
    const exp = epoch(at(3600));
    const { verify, calls } = countingVerifier({ a: { exp }, b: { exp }, c: { exp }, d: { exp } });
    const remembered = rememberVerifiedTokens(verify, options);
    for (const token of ['a', 'b', 'c', 'd']) await remembered(token, at(0));
    await remembered('d', at(1));
    await remembered('b', at(1));
    await remembered('a', at(1));
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
