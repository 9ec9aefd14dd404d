import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** `src/server.ts` as `corepack pnpm dev` runs it, with only `env` (and PATH) set. */
function startServer(env: NodeJS.ProcessEnv) {
  return spawnSync(path.join(packageDir, 'node_modules/.bin/tsx'), ['--conditions=source', 'src/server.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 60_000,
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

});
