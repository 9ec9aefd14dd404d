import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBPROCESS_TIMEOUT_MS } from '#test-timing';

const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

function migrate(env: NodeJS.ProcessEnv) {
  // DATABASE_URL empty: the PGlite folder is the target even where the test process has one (CI).
  return spawnSync(path.join(packageDir, 'node_modules/.bin/tsx'), ['--conditions=source', 'src/cli/migrate.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: SUBPROCESS_TIMEOUT_MS,
  });
}

describe('pnpm db:migrate without DATABASE_URL', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("migrates the local start's PGlite folder under LOCAL_DATA_DIR, as the other local commands find it", () => {
    const localDataDir = mkdtempSync(path.join(tmpdir(), 'migrate-local-'));
    folders.push(localDataDir);
    const first = migrate({ LOCAL_DATA_DIR: localDataDir });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`Migrating PGlite in ${path.join(localDataDir, 'pglite')} with `);
    expect(first.stdout).toMatch(/Applied \d+ migrations?/);
    expect(existsSync(path.join(localDataDir, 'pglite', 'PG_VERSION'))).toBe(true);

    // PGLITE_DATA_DIR names the folder itself and wins over LOCAL_DATA_DIR.
    const pgliteDir = mkdtempSync(path.join(tmpdir(), 'migrate-pglite-'));
    folders.push(pgliteDir);
    const second = migrate({ LOCAL_DATA_DIR: localDataDir, PGLITE_DATA_DIR: pgliteDir });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`Migrating PGlite in ${pgliteDir} with `);
    expect(second.stdout).toMatch(/Applied \d+ migrations?/);
  });
});
