import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findRepositoryRoot, localDataDir, localPgliteDataDir } from './local-data-dir.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const packageDir = path.join(root, 'apps/backend-api');

describe('the local data folder', () => {
  it('finds the repository root from anywhere inside it, and nothing outside a checkout', () => {
    expect(findRepositoryRoot()).toBe(root);
    expect(findRepositoryRoot(path.join(packageDir, 'src/cli'))).toBe(root);
    const outside = mkdtempSync(path.join(tmpdir(), 'no-checkout-'));
    try {
      expect(findRepositoryRoot(outside)).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('is .data at the repository root, whatever folder a command runs in', () => {
    for (const cwd of [root, packageDir]) {
      expect(localDataDir({}, cwd)).toBe(path.join(root, '.data'));
      expect(localPgliteDataDir({}, cwd)).toBe(path.join(root, '.data/pglite'));
    }
  });

  it('follows LOCAL_DATA_DIR, relative paths from the repository root', () => {
    expect(localPgliteDataDir({ LOCAL_DATA_DIR: '/srv/local' }, packageDir)).toBe('/srv/local/pglite');
    expect(localDataDir({ LOCAL_DATA_DIR: 'tmp/local' }, packageDir)).toBe(path.join(root, 'tmp/local'));
    expect(localDataDir({ LOCAL_DATA_DIR: '' }, packageDir)).toBe(path.join(root, '.data'));
  });

  it('takes PGLITE_DATA_DIR over the local start folder', () => {
    expect(localPgliteDataDir({ PGLITE_DATA_DIR: '/srv/pg', LOCAL_DATA_DIR: '/srv/local' }, packageDir)).toBe(
      '/srv/pg',
    );
    expect(localPgliteDataDir({ PGLITE_DATA_DIR: 'db' }, packageDir)).toBe(path.join(root, 'db'));
    expect(localPgliteDataDir({ PGLITE_DATA_DIR: '' }, packageDir)).toBe(path.join(root, '.data/pglite'));
  });
});
