// What suites need from the machine (a PostgreSQL or Redis server, a browser), and one rule for when it is
// missing: skip on a developer's machine, saying why once; fail in CI, which provides everything (.ci/run), so
// that a suite that stopped running cannot pass unnoticed. Imported by tests as '#test-prerequisites'.
import { existsSync } from 'node:fs';

export interface Prerequisite {
  /** What is missing, in words a reader can act on. */
  readonly description: string;
  available(): boolean;
}

export const postgresServer: Prerequisite = {
  description: 'DATABASE_URL (a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres)',
  available: () => Boolean(process.env.DATABASE_URL),
};

export const redisServer: Prerequisite = {
  description: 'REDIS_URL (a Redis server, e.g. redis://127.0.0.1:6379)',
  available: () => Boolean(process.env.REDIS_URL),
};

/** Where the headless Chromium the browser tests drive lives: CHROMIUM_PATH, else Debian's package. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export const chromiumBrowser: Prerequisite = {
  get description() {
    return `Chromium at ${chromiumPath()} (apt-get install chromium, or set CHROMIUM_PATH)`;
  },
  available: () => existsSync(chromiumPath()),
};

const printed = new Set<string>();

function inCi(): boolean {
  const ci = process.env.CI?.toLowerCase();
  return ci === 'true' || ci === '1';
}

/**
 * True when a suite has to be skipped for want of `prerequisites`: `describe.skipIf(missing(postgresServer))(...)`.
 * Outside CI the reason is printed once (vitest's default reporter does not show skipped suites' titles). With
 * CI=true it throws instead, failing the test file, because CI must run every suite.
 */
export function missing(...prerequisites: Prerequisite[]): boolean {
  const absent = prerequisites.filter((prerequisite) => !prerequisite.available());
  if (absent.length === 0) return false;
  const what = absent.map(({ description }) => description).join(' and ');
  if (inCi()) {
    throw new Error(`CI=true, but these tests need ${what}, which is not available: provide it instead of skipping`);
  }
  const reason = `Skipping tests that need ${what}`;
  if (!printed.has(reason)) {
    printed.add(reason);
    console.warn(reason);
  }
  return true;
}
