import { createDatabase, type DatabaseHandle, migrateDatabase } from '@platform/db';
import postgres from 'postgres';

export interface BenchDatabase {
  /** Connection URL of the fresh database. */
  url: string;
  name: string;
  /** Drops the database (with force: services still connected are cut off). */
  drop(): Promise<void>;
}

/** A new, migrated database `bench_<runId>` on the server `maintenanceUrl` points at. */
export async function createBenchDatabase(maintenanceUrl: string, runId: string): Promise<BenchDatabase> {
  const name = `bench_${runId}`;
  await withAdminConnection(maintenanceUrl, (admin) => admin.unsafe(`create database "${name}"`));
  const url = withDatabaseName(maintenanceUrl, name);
  const handle = await createDatabase({ url, maxConnections: 2 });
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
  return {
    url,
    name,
    drop: () =>
      withAdminConnection(maintenanceUrl, (admin) =>
        admin.unsafe(`drop database if exists "${name}" with (force)`),
      ).then(() => undefined),
  };
}

export async function openDatabase(url: string, maxConnections = 10): Promise<DatabaseHandle> {
  return createDatabase({ url, maxConnections });
}

/** The server's version number ("15.20"). */
export async function postgresVersion(url: string): Promise<string> {
  return withAdminConnection(url, async (admin) => {
    const [row] = await admin<{ version: string }[]>`select current_setting('server_version') as version`;
    return row?.version.split(' ')[0] ?? 'unknown';
  });
}

async function withAdminConnection<T>(url: string, work: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
