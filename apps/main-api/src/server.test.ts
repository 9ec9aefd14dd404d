import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUBPROCESS_TIMEOUT_MS } from '#test-timing';

const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

const auth = { AUTH_JWT_SECRET: 'x'.repeat(32), AUTH_ISSUER: 'i', AUTH_AUDIENCE: 'a' };

function startServer(env: NodeJS.ProcessEnv) {
  return spawnSync(path.join(packageDir, 'node_modules/.bin/tsx'), ['--conditions=source', 'src/server.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, ...auth, ...env },
    encoding: 'utf8',
    timeout: SUBPROCESS_TIMEOUT_MS,
  });
}

// The process stops before it opens a database or a port, so nothing else is needed.
describe('main-api started with bad configuration', () => {
  it('prints one line naming the variable and exits with 1, without a stack trace', () => {
    const result = startServer({ DATABASE_POOL_SIZE: '0' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Invalid configuration: DATABASE_POOL_SIZE must be an integer between 1 and 100 (got "0")\n',
    );
  });

  it('names PUBLIC_URL and SANDBOX_CHECKOUT_SECRET on one line when DATABASE_URL is set without them', () => {
    // Nothing listens there: the check comes before any connection.
    const result = startServer({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Invalid configuration: PUBLIC_URL is required when DATABASE_URL is set: [^\n]*; SANDBOX_CHECKOUT_SECRET is required [^\n]*\n$/,
    );
  });
});
