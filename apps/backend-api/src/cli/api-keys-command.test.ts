import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findActiveApiKey } from '@platform/api-keys';
import { connectionUrlOf, createDatabase, type Database, findRepositoryRoot, migrateDatabase } from '@platform/db';
import { apiKeys, organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/app-fixtures.js';
import { parseApiKeysCommand, runApiKeysCommand } from './api-keys-command.js';

const SECRET_LINE = /^Secret \(shown once, store it now\): (sk_(?:live|test)_[A-Za-z0-9_-]{43})$/;

function secretOf(lines: readonly string[]): string {
  const secret = lines.map((line) => SECRET_LINE.exec(line)?.[1]).find((match) => match !== undefined);
  if (secret === undefined) throw new Error(`No secret in:\n${lines.join('\n')}`);
  return secret;
}

/** An organization, activated unless said otherwise (docs/decisions.md#going-live). */
async function addOrganization(db: Database, name: string, activated = true): Promise<string> {
  const [organization] = await db
    .insert(organizations)
    .values({ name, activatedAt: activated ? new Date() : null })
    .returning();
  return organization!.id;
}

describe('the api-keys command', () => {
  const database = useTestDatabase();
  let organizationId: string;

  beforeEach(async () => {
    await database.db.delete(organizations);
    organizationId = await addOrganization(database.db, 'Acme');
  });

  const run = (...args: string[]) => runApiKeysCommand(args, database.db);

  it('creates a key whose secret, printed once, authenticates as the organization', async () => {
    const result = await run(
      'create',
      '--organization',
      organizationId,
      '--environment',
      'live',
      '--name',
      ' Billing server ',
      '--rate-limit',
      '120',
    );
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toMatch(/^Created live key [0-9a-f-]{36} \(Billing server\) for Acme\.$/);
    const secret = secretOf(result.lines);
    expect(secret.startsWith('sk_live_')).toBe(true);

    const found = await findActiveApiKey(database.db, secret);
    expect(found).toMatchObject({ organizationId, environment: 'live', rateLimitPerMinute: 120 });
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, found!.id));
    expect(row).toMatchObject({ name: 'Billing server', lastFour: secret.slice(-4) });
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('refuses a live key for an organization not activated, and makes its test key', async () => {
    const locked = await addOrganization(database.db, 'Fresh', false);
    const live = await run('create', '--organization', locked, '--environment', 'live');
    expect(live.exitCode).not.toBe(0);
    expect(live.lines.join(' ')).toContain('Fresh is not activated');
    expect(await database.db.$count(apiKeys, eq(apiKeys.organizationId, locked))).toBe(0);
    expect((await run('create', '--organization', locked, '--environment', 'test')).exitCode).toBe(0);
  });

  it('lists the active keys, without their secrets, and stops listing a revoked one', async () => {
    const live = await run('create', '--organization', organizationId, '--environment', 'live');
    const test = await run('create', '--organization', organizationId, '--environment', 'test', '--name', 'CI');
    const [liveId, testId] = [live, test].map((result) => /key ([0-9a-f-]{36})/.exec(result.lines[0]!)?.[1]);
    const [liveSecret, testSecret] = [secretOf(live.lines), secretOf(test.lines)];

    const listed = await run('list', '--organization', organizationId);
    expect(listed.exitCode).toBe(0);
    expect(listed.lines).toHaveLength(2);
    expect(listed.lines[0]).toMatch(
      new RegExp(
        `^${liveId}  sk_live_\\.\\.\\.${liveSecret.slice(-4)}  Default  default per minute  created \\S+Z  last used never$`,
      ),
    );
    expect(listed.lines[1]).toMatch(new RegExp(`^${testId}  sk_test_\\.\\.\\.${testSecret.slice(-4)}  CI  `));
    expect(listed.lines.join('\n')).not.toContain(liveSecret.slice(8, -4));

    expect(await run('revoke', '--id', liveId!)).toEqual({
      exitCode: 0,
      lines: [`Revoked key ${liveId}. It stops working at once.`],
    });
    expect(await findActiveApiKey(database.db, liveSecret)).toBeNull();
    expect(await findActiveApiKey(database.db, testSecret)).not.toBeNull();
    expect((await run('list', '--organization', organizationId)).lines).toEqual([listed.lines[1]]);

    expect(await run('revoke', '--id', liveId!)).toEqual({ exitCode: 1, lines: [`No active key with id ${liveId}`] });
  });

  it('says so when an organization has no active key', async () => {
    expect(await run('list', '--organization', organizationId)).toEqual({ exitCode: 0, lines: ['No active keys.'] });
  });

  it('fails for an unknown organization with one line, and creates nothing', async () => {
    const id = crypto.randomUUID();
    const expected = { exitCode: 1, lines: [`No organization with id ${id}`] };
    expect(await run('create', '--organization', id, '--environment', 'test')).toEqual(expected);
    expect(await run('list', '--organization', id)).toEqual(expected);
    expect(await database.db.select().from(apiKeys)).toEqual([]);
  });

  it('fails for a key id that names no key', async () => {
    const id = crypto.randomUUID();
    expect(await run('revoke', '--id', id)).toEqual({ exitCode: 1, lines: [`No active key with id ${id}`] });
  });

  // A well-formed id that names no organization: every other argument is checked first.
  const someId = '00000000-0000-4000-8000-000000000000';
  const create = (...args: string[]) => ['create', '--organization', someId, '--environment', 'live', ...args];

  it.each([
    ['no command', [], 'Name a command: create, list or revoke'],
    ['an unknown command', ['delete', '--id', someId], 'Unknown command: delete'],
    ['an extra argument', ['list', 'all', '--organization', someId], 'Unexpected argument: all'],
    ['an unknown option', ['create', '--organisation', someId], "Unknown option '--organisation'"],
    ['no organization', ['create', '--environment', 'live'], '--organization is required'],
    [
      'an organization id that is not a UUID',
      ['create', '--organization', 'acme', '--environment', 'live'],
      '--organization must be a UUID (got "acme")',
    ],
    [
      'a list for an organization id that is not a UUID',
      ['list', '--organization', '42'],
      '--organization must be a UUID (got "42")',
    ],
    ['no environment', ['create', '--organization', someId], '--environment must be live or test'],
    [
      'a bad environment',
      ['create', '--organization', someId, '--environment', 'prod'],
      '--environment must be live or test',
    ],
    ['an empty name', create('--name', '  '), '--name must be 1-100 characters'],
    ['a name over 100 characters', create('--name', 'n'.repeat(101)), '--name must be 1-100 characters'],
    ['a name with a control character', create('--name', 'a\u0007b'), '--name must not contain control characters'],
    [
      'a zero rate limit',
      create('--rate-limit', '0'),
      '--rate-limit must be a whole number of requests per minute from 1 to 100000',
    ],
    ['a fractional rate limit', create('--rate-limit', '1.5'), '--rate-limit must be a whole number'],
    ['a rate limit above the maximum', create('--rate-limit', '100001'), '--rate-limit must be a whole number'],
    ['a rate limit in words', create('--rate-limit', 'ten'), '--rate-limit must be a whole number'],
    ['a revoke without an id', ['revoke'], '--id is required'],
    ['a key id that is not a UUID', ['revoke', '--id', 'sk_live_abc'], '--id must be a UUID (got "sk_live_abc")'],
  ])('refuses %s with the usage, before opening any database', (_label, args, message) => {
    const result = parseApiKeysCommand(args);
    expect(result).not.toHaveProperty('execute');
    expect(result).toMatchObject({ exitCode: 2 });
    const { lines } = result as { lines: string[] };
    expect(lines[0]).toContain(message);
    expect(lines.at(-1)).toContain('A PGlite folder can be opened by one process at a time');
  });

  it('prints the usage on --help', async () => {
    const result = await run('--help');
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toContain('api-keys revoke --id <key id>');
  });
});

// The command as people run it: a process on DATABASE_URL or the local start's PGlite folder.
describe('the api-keys command as a process', () => {
  const database = useTestDatabase();
  const repositoryRoot = findRepositoryRoot()!;
  const packageDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
  const scratch = mkdtempSync(path.join(tmpdir(), 'api-keys-command-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  interface Finished {
    exitCode: number | null;
    stdout: string;
    stderr: string;
  }

  function runProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd,
        env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', PGLITE_DATA_DIR: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    });
  }

  /** `src/cli/api-keys.ts` run in the package folder, as `corepack pnpm api-keys ...` there does. */
  const apiKeysProcess = (args: string[], env: NodeJS.ProcessEnv) =>
    runProcess(
      path.join(packageDir, 'node_modules/.bin/tsx'),
      ['--conditions=source', 'src/cli/api-keys.ts', ...args],
      packageDir,
      env,
    );

  async function closedAddress(): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise((resolve) => server.close(resolve));
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  /** A local start data folder whose PGlite database is migrated and has one organization. */
  async function localStartFolder(name: string): Promise<{ dataDir: string; organizationId: string }> {
    const dataDir = path.join(scratch, name);
    mkdirSync(dataDir, { recursive: true });
    const handle = await createDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      await migrateDatabase(handle);
      // As a stopped local start leaves it: its address no longer answers.
      writeFileSync(
        path.join(dataDir, 'local-credentials.json'),
        JSON.stringify({ backendUrl: await closedAddress() }),
      );
      return { dataDir, organizationId: await addOrganization(handle.db, 'Local Ltd') };
    } finally {
      await handle.close();
    }
  }

  async function inFolder<T>(dataDir: string, work: (db: Database) => Promise<T>): Promise<T> {
    const handle = await createDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      return await work(handle.db);
    } finally {
      await handle.close();
    }
  }

  it("creates a key in the local start's folder with the README's command, from the repository root", async () => {
    const { dataDir, organizationId } = await localStartFolder('readme');
    const result = await runProcess(
      'corepack',
      [
        'pnpm',
        '--silent',
        '--filter',
        '@platform/backend-api',
        'api-keys',
        'create',
        '--organization',
        organizationId,
        '--environment',
        'test',
      ],
      repositoryRoot,
      { DATABASE_URL: '', LOCAL_DATA_DIR: dataDir },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const secret = secretOf(result.stdout.trim().split('\n'));
    expect(await inFolder(dataDir, (db) => findActiveApiKey(db, secret))).toMatchObject({
      organizationId,
      environment: 'test',
    });
  });

  it('creates and revokes a key on the database the environment names', async () => {
    // DATABASE_URL when the suite runs on PostgreSQL; otherwise a PGlite folder, as the local start leaves it.
    const url = process.env.DATABASE_URL ? connectionUrlOf(database.db) : undefined;
    const { dataDir, organizationId } =
      url === undefined
        ? await localStartFolder('target')
        : { dataDir: path.join(scratch, 'unused'), organizationId: await addOrganization(database.db, 'Postgres Ltd') };
    const env = { DATABASE_URL: url ?? '', LOCAL_DATA_DIR: dataDir };

    const created = await apiKeysProcess(['create', '--organization', organizationId, '--environment', 'live'], env);
    expect(created).toMatchObject({ exitCode: 0, stderr: '' });
    const id = /key ([0-9a-f-]{36})/.exec(created.stdout)?.[1];
    const revoked = await apiKeysProcess(['revoke', '--id', id!], env);
    expect(revoked).toEqual({ exitCode: 0, stdout: `Revoked key ${id}. It stops working at once.\n`, stderr: '' });
    const secret = secretOf(created.stdout.trim().split('\n'));
    const stillActive = (db: Database) => findActiveApiKey(db, secret);
    expect(url === undefined ? await inFolder(dataDir, stillActive) : await stillActive(database.db)).toBeNull();
  });

  it('migrates an empty PGlite folder before using it', async () => {
    const dataDir = path.join(scratch, 'empty');
    mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    const id = crypto.randomUUID();
    const result = await apiKeysProcess(['list', '--organization', id], { DATABASE_URL: '', LOCAL_DATA_DIR: dataDir });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^Applied \\d+ migrations to the PGlite folder ${path.join(dataDir, 'pglite')}\\.\nNo organization with id ${id}\n$`,
      ),
    );
  });

  it('answers one line without a stack trace for a missing folder and for a malformed organization id', async () => {
    const dataDir = path.join(scratch, 'missing');
    const env = { DATABASE_URL: '', LOCAL_DATA_DIR: dataDir };
    const missing = await apiKeysProcess(['list', '--organization', crypto.randomUUID()], env);
    expect(missing).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `No database in ${path.join(dataDir, 'pglite')}: run \`corepack pnpm start\` at the repository root once, or set DATABASE_URL or PGLITE_DATA_DIR\n`,
    });

    const malformed = await apiKeysProcess(['create', '--organization', 'acme', '--environment', 'live'], env);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr.split('\n')[0]).toBe('--organization must be a UUID (got "acme")');
    expect(malformed.stderr).not.toMatch(/^\s+at /m);
  });
});
