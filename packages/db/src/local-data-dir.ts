import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (the nearest folder above `from` holding pnpm-workspace.yaml), or undefined outside
 * a checkout, as in a deployed image.
 */
export function findRepositoryRoot(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let directory = path.resolve(from);
  while (!existsSync(path.join(directory, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
  return directory;
}

// Commands started through `pnpm --filter` run in the package's folder; taking relative paths from the
// repository root makes every command find the folder the local start uses, wherever it was started.
function fromRoot(dir: string, cwd: string): string {
  return path.resolve(findRepositoryRoot() ?? cwd, dir);
}

/**
 * The local start's data folder (database, uploads, secrets): `LOCAL_DATA_DIR`, default `.data`. Relative
 * paths are taken from the repository root (from `cwd` outside a checkout).
 */
export function localDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return fromRoot(env.LOCAL_DATA_DIR || '.data', cwd);
}

/**
 * The PGlite folder of the local start, for commands run beside it: `PGLITE_DATA_DIR` when set, otherwise
 * `pglite` inside localDataDir(). Relative paths are taken as localDataDir() takes them.
 */
export function localPgliteDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return env.PGLITE_DATA_DIR ? fromRoot(env.PGLITE_DATA_DIR, cwd) : path.join(localDataDir(env, cwd), 'pglite');
}
