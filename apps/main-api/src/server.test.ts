import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

// The process stops before it opens a database or a port, so nothing else is needed.
describe('main-api started with bad configuration', () => {
  it('prints one line naming the variable and exits with 1, without a stack trace', () => {
    const result = spawnSync(path.join(packageDir, 'node_modules/.bin/tsx'), ['--conditions=source', 'src/server.ts'], {
      cwd: packageDir,
      env: { PATH: process.env.PATH, DATABASE_POOL_SIZE: '0', AUTH_JWT_SECRET: 'x'.repeat(32), AUTH_ISSUER: 'i', AUTH_AUDIENCE: 'a' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Invalid configuration: DATABASE_POOL_SIZE must be an integer between 1 and 100 (got "0")\n');
  });
});
