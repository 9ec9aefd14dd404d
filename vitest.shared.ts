import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { EVENTUALLY_TIMEOUT_MS } from './vitest.timing.js';

// Tests run on the packages' TypeScript sources (the "source" export condition), so no build is needed first.
export default defineConfig({
  // No 'import' condition: with it, CommonJS packages that require() an ESM-capable dependency
  // (@fastify/helmet -> helmet) would receive the ES module namespace instead of the function.
  resolve: {
    conditions: ['source', 'node', 'default'],
    // Shared test helpers outside any package (tsconfig.base.json maps the same name for TypeScript).
    alias: {
      '#test-prerequisites': fileURLToPath(new URL('./vitest.prerequisites.ts', import.meta.url)),
      '#test-browser': fileURLToPath(new URL('./vitest.browser.ts', import.meta.url)),
      '#test-timing': fileURLToPath(new URL('./vitest.timing.ts', import.meta.url)),
    },
  },
  ssr: { resolve: { conditions: ['source', 'node', 'default'], externalConditions: ['source'] } },
  test: {
    environment: 'node',
    // Only there to stop a test that hangs, never a claim about speed (docs/testing.md#rules): CI runs every package's
    // suite at once on two shared cores, where a fuzz run or a PGlite migration can take minutes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // A suite's files share their worker's modules instead of importing the app again for each file: half the CPU of
    // the apps' suites went to those imports. Every test builds its own app, database and clock, and restores what it
    // changes (docs/testing.md#rules).
    isolate: false,
    // expect.poll waits like eventually(): its own default (1 s) is what frames loading can take on a
    // loaded machine (docs/testing.md#rules).
    expect: { poll: { timeout: EVENTUALLY_TIMEOUT_MS } },
  },
});
