// `pnpm db:migrate`: applies the committed migrations to DATABASE_URL or, when DATABASE_URL is not set, to the
// local PGlite folder as the backend-api commands find it (localPgliteDataDir): PGLITE_DATA_DIR when set, else
// the local start's LOCAL_DATA_DIR/pglite (default .data/pglite at the repository root).
import { mkdirSync } from 'node:fs';
import { createDatabase, type DatabaseHandle, redactConnectionUrl } from '../client.js';
import { localPgliteDataDir } from '../local-data-dir.js';
import { countAppliedMigrations, migrateDatabase, migrationsFolder } from '../migrate.js';

async function openTarget(): Promise<{ handle: DatabaseHandle; description: string }> {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    return {
      handle: await createDatabase({ url, maxConnections: 1 }),
      description: `PostgreSQL at ${redactConnectionUrl(url)}`,
    };
  }
  // Relative paths are taken from the repository root, wherever the command is started.
  const dataDir = localPgliteDataDir();
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
