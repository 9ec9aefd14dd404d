import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepositoryRoot } from './local-data-dir.js';

// The writes of a change go to its unit of work (docs/decisions.md#a-unit-of-work), never through the signatures of
// the code in between: no function of the apps or packages takes statements to send inside its own ("riders",
// passed "alongside"), as they once did.

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.turbo']);
const UNIT_OF_WORK = new Set(['packages/db/src/unit-of-work.ts', 'packages/db/src/unit-of-work.test.ts']);

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : typeScriptFiles(at);
    return entry.name.endsWith('.ts') ? [at] : [];
  });
}

describe('the unit of work’s callers', () => {
  it('pass no riders: no code of the apps or packages outside the unit of work names them', () => {
    const root = findRepositoryRoot();
    if (root === undefined) throw new Error('The repository root was not found');
    const naming = ['apps', 'packages']
      .flatMap((workspaces) => typeScriptFiles(path.join(root, workspaces)))
      .map((file) => path.relative(root, file).split(path.sep).join('/'))
      .filter((file) => !UNIT_OF_WORK.has(file) && file !== 'packages/db/src/unit-of-work-callers.test.ts')
      .filter((file) => /\b(riders|alongside)\b/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(naming).toEqual([]);
  });
});
