import { expect } from 'vitest';

/** Host and port of a PostgreSQL or Redis URL, for a proxy in front of it. */
export function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)) };
}

/** The error envelope, whatever its message and code. */
export const ENVELOPE = {
  success: false,
  error: expect.any(String),
  code: expect.any(String),
  requestId: expect.any(String),
};
