import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { createDatabase, createPostgresDatabase, type DatabaseHandle, wrapPglite } from './client.js';
import { migrateDatabase, migrationsFolder } from './migrate.js';
import { recordStatements, type StatementLog } from './statement-log.js';

export {
  createStatementLog,
  type LoggedStatement,
  type StatementLog,
  statementSummary,
  statementSummaryMarkingPrepared,
} from './statement-log.js';
export { tableChecksums } from './table-checksums.js';

export interface CreateTestDatabaseOptions {
  /** PostgreSQL only: pool size of the test database. Many test files run at once, so keep it small. */
  maxConnections?: number;
  /**
   * PostgreSQL only (it throws without DATABASE_URL): every statement the database's client sends is added to this
   * log, BEGIN and COMMIT included, for tests that pin the statements of a request.
   */
  statementLog?: StatementLog;
}

const DEFAULT_TEST_MAX_CONNECTIONS = 5;
const TEMPLATE_LOCK_NAME = '@platform/db:test-template';

/**
 * A fresh, migrated database that belongs to the caller alone.
 *
 * With DATABASE_URL set: a new PostgreSQL database copied from a migrated template (one template per set of
 * migrations, created once and shared by every test process); close() drops it.
 * Without: an in-memory PGlite started from an image of a migrated data directory (built once, then cached).
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') return createPostgresTestDatabase(url, options);
  if (options.statementLog !== undefined) {
    throw new Error('A statement log records what postgres.js sends: it needs DATABASE_URL (PostgreSQL)');
  }
  return createPgliteTestDatabase();
}

// ---------------------------------------------------------------------------------------------- PostgreSQL

const templates = new Map<string, Promise<string>>();

async function createPostgresTestDatabase(
  maintenanceUrl: string,
  options: CreateTestDatabaseOptions,
): Promise<DatabaseHandle> {
  const template = await templateFor(maintenanceUrl);
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withAdminConnection(maintenanceUrl, (admin) =>
    admin.unsafe(`create database ${quote(name)} template ${quote(template)}`),
  );

  const { statementLog } = options;
  const handle = createPostgresDatabase(withDatabaseName(maintenanceUrl, name), {
    maxConnections: options.maxConnections ?? DEFAULT_TEST_MAX_CONNECTIONS,
    ...(statementLog === undefined ? {} : { wrapClient: (client) => recordStatements(client, statementLog) }),
  });
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    close: () => {
      closing ??= (async () => {
        await handle.close();
        await withAdminConnection(maintenanceUrl, (admin) =>
          admin.unsafe(`drop database if exists ${quote(name)} with (force)`),
        );
      })();
      return closing;
    },
  };
}

/** The migrated template database for the current migrations on this server, created on first use. */
function templateFor(maintenanceUrl: string): Promise<string> {
  let template = templates.get(maintenanceUrl);
  if (template === undefined) {
    template = ensureTemplate(maintenanceUrl);
    // A failed attempt must not poison later calls in the same process.
    template.catch(() => templates.delete(maintenanceUrl));
    templates.set(maintenanceUrl, template);
  }
  return template;
}

/**
 * Test processes race to create the template, so creation is serialised by an advisory lock on the
 * maintenance database. A template counts as ready once it is flagged `datistemplate`, which happens only
 * after it is migrated and every connection to it is closed (CREATE DATABASE ... TEMPLATE refuses a source
 * that has connections). A leftover from an interrupted run is not flagged, so it is dropped and rebuilt.
 */
async function ensureTemplate(maintenanceUrl: string): Promise<string> {
  const template = `platform_tpl_${migrationSetHash()}`;
  await withAdminConnection(maintenanceUrl, async (admin) => {
    await admin`select pg_advisory_lock(hashtextextended(${TEMPLATE_LOCK_NAME}, 0))`;
    const [existing] = await admin<{ ready: boolean }[]>`
      select datistemplate as ready from pg_database where datname = ${template}`;
    if (existing?.ready === true) return;
    await admin.unsafe(`drop database if exists ${quote(template)} with (force)`);
    await admin.unsafe(`create database ${quote(template)}`);
    const handle = await createDatabase({ url: withDatabaseName(maintenanceUrl, template), maxConnections: 1 });
    try {
      await migrateDatabase(handle);
    } finally {
      await handle.close();
    }
    await admin.unsafe(`alter database ${quote(template)} is_template true`);
  });
  return template;
}

/** Eight hex characters that change whenever any file in the migrations folder changes. */
function migrationSetHash(): string {
  const hash = createHash('sha256');
  for (const file of listFiles(migrationsFolder)) {
    hash.update(relative(migrationsFolder, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 8);
}

function listFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name);
      return entry.isDirectory() ? listFiles(path) : [path];
    })
    .sort();
}

/** Runs `work` on one short-lived connection; closing it also releases any session advisory lock. */
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

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

// -------------------------------------------------------------------------------------------------- PGlite

let migratedPgliteImage: Promise<Blob> | undefined;

async function createPgliteTestDatabase(): Promise<DatabaseHandle> {
  // Starting PGlite from a migrated data directory image is several times faster than initdb + migrate.
  migratedPgliteImage ??= loadOrBuildPgliteImage();
  const client = await PGlite.create({ loadDataDir: await migratedPgliteImage });
  return wrapPglite(client);
}

/**
 * The image is also kept in the temp directory, keyed by the migrations and the PGlite build, so the many
 * test processes of a run (and later runs) skip initdb altogether. Written under a temporary name and
 * renamed, so a reader never sees half a file.
 */
async function loadOrBuildPgliteImage(): Promise<Blob> {
  const key = createHash('sha256').update(migrationSetHash()).update(pgliteBuild()).digest('hex').slice(0, 16);
  const path = join(tmpdir(), `platform-db-pglite-${key}.tar`);
  try {
    return new Blob([await readFile(path)]);
  } catch {
    // Not built yet: build it below.
  }
  const image = await buildMigratedPgliteImage();
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(partial, Buffer.from(await image.arrayBuffer()));
    await rename(partial, path);
  } catch {
    // The cache only saves time; without a writable temp directory every process builds its own image.
    await rm(partial, { force: true });
  }
  return image;
}

async function buildMigratedPgliteImage(): Promise<Blob> {
  const client = await PGlite.create();
  try {
    await migrateDatabase(wrapPglite(client));
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** Identifies the installed PGlite: its resolved path, which carries the version in pnpm's store layout. */
function pgliteBuild(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return `${entry}:${statSync(entry).size}`;
}
