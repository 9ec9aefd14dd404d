// `pnpm db:migrate`: applies the committed migrations to DATABASE_URL, or to the local PGlite data directory
// (PGLITE_DATA_DIR, default .data/pglite at the repository root) when DATABASE_URL is not set.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, type DatabaseHandle } from '../client.js';
import { countAppliedMigrations, migrateDatabase, migrationsFolder } from '../migrate.js';

function findRepositoryRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(directory, 'pnpm-workspace.yaml'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('Could not find the repository root (pnpm-workspace.yaml)');
    directory = parent;
  }
  return directory;
}

/** The URL with its password masked, for printing. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

async function openTarget(): Promise<{ handle: DatabaseHandle; description: string }> {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    return { handle: await createDatabase({ url, maxConnections: 1 }), description: `PostgreSQL at ${redact(url)}` };
  }
  // Relative paths are taken from the repository root, wherever the command is started.
  const dataDir = resolve(findRepositoryRoot(), process.env.PGLITE_DATA_DIR || '.data/pglite');
  mkdirSync(dataDir, { recursive: true });
  return { handle: await createDatabase({ dataDir }), description: `PGlite in ${dataDir}` };
}

async function main(): Promise<void> {
  const { handle, description } = await openTarget();
  try {
    console.log(`Migrating ${description} with ${migrationsFolder}`);
    const before = await countAppliedMigrations(handle);
    await migrateDatabase(handle);
    const after = await countAppliedMigrations(handle);
    const applied = after - before;
    console.log(
      applied === 0
        ? `Already up to date (${after} migration${after === 1 ? '' : 's'} applied).`
        : `Applied ${applied} migration${applied === 1 ? '' : 's'} (${after} in total).`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error('Migration failed:', error);
  process.exitCode = 1;
});
