import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUBPROCESS_TIMEOUT_MS } from '#test-timing';

const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** `src/server.ts` as `corepack pnpm dev` runs it, with only `env` (and PATH) set. */
function startServer(env: NodeJS.ProcessEnv) {
  return spawnSync(path.join(packageDir, 'node_modules/.bin/tsx'), ['--conditions=source', 'src/server.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: SUBPROCESS_TIMEOUT_MS,
  });
}

// The process stops before it opens a database or a port, so nothing else is needed.
describe('backend-api started with bad configuration', () => {
  it('prints one line naming the variable and exits with 1, without a stack trace', () => {
    const result = startServer({ PORT: 'abc' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer between 0 and 65535 (got "abc")\n');
  });

  it('refuses an external database without VERIFY_URL and HOSTED_PAGE_SECRET, in one line', () => {
    const result = startServer({ DATABASE_URL: 'postgres://platform@127.0.0.1:1/none' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Invalid configuration: VERIFY_URL is required when DATABASE_URL is set: .*; HOSTED_PAGE_SECRET is required when DATABASE_URL is set/,
    );
  });
});
