import { expect } from 'vitest';

/** Host and port of a PostgreSQL or Redis URL, for a proxy in front of it. */
export function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)) };
}

/** Polls `check` until it gives a value (not undefined or false); fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, pollMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result !== undefined && result !== false) return result;
    if (Date.now() > deadline) throw new Error('The condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The error envelope, whatever its message and code. */
export const ENVELOPE = { success: false, error: expect.any(String), code: expect.any(String), requestId: expect.any(String) };
