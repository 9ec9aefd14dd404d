import { defineConfig } from 'vitest/config';

// Tests run on the packages' TypeScript sources (the "source" export condition), so no build is needed first.
export default defineConfig({
  // No 'import' condition: with it, CommonJS packages that require() an ESM-capable dependency
  // (@fastify/helmet -> helmet) would receive the ES module namespace instead of the function.
  resolve: { conditions: ['source', 'node', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node', 'default'], externalConditions: ['source'] } },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
