import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '@platform/api-keys';
import { createDatabase, findRepositoryRoot, migrateDatabase } from '@platform/db';
import { auditEvents, organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/app-fixtures.js';
import { parseOrganizationsCommand, runOrganizationsCommand } from './organizations-command.js';

describe('the organizations command', () => {
  const database = useTestDatabase();
  let organizationId: string;
  let createdAt: string;

  beforeEach(async () => {
    await database.db.delete(organizations);
    const [organization] = await database.db.insert(organizations).values({ name: 'Acme' }).returning();
    organizationId = organization!.id;
    createdAt = organization!.createdAt.toISOString();
  });

  const run = (...args: string[]) => runOrganizationsCommand(args, database.db);
  const storedMax = async () =>
    (await database.db.select().from(organizations).where(eq(organizations.id, organizationId)))[0]
      ?.maxKeyRateLimitPerMinute;

  it("shows an organization without a maximum of its own as using main-api's default", async () => {
    await createApiKey(database.db, { organizationId, environment: 'live' });
    expect(await run('show', '--organization', organizationId)).toEqual({
      exitCode: 0,
      lines: [
        `Acme (${organizationId}), created ${createdAt}`,
        "Key rate limit maximum: main-api's default (API_KEY_RATE_LIMIT_MAX_PER_MINUTE, 600 unless configured)",
        'Activated: no (live keys and live top-ups locked)',
        'Active API keys: 1',
      ],
    });
  });

  it('activates an organization once, recorded in its audit log, which show then reports', async () => {
    expect(await run('activate', '--organization', organizationId)).toEqual({
      exitCode: 0,
      lines: ['Acme is activated: its live API keys and live top-ups are unlocked.'],
    });
    expect((await run('show', '--organization', organizationId)).lines[2]).toMatch(/^Activated: \d{4}-\d\d-\d\dT/);
    expect(await run('activate', '--organization', organizationId)).toEqual({
      exitCode: 0,
      lines: ['Acme is activated already; nothing changed.'],
    });
    const events = await database.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));
    expect(events.map((event) => [event.action, event.details])).toEqual([
      ['organization.activated', { operator: 'organizations_command' }],
    ]);
  });

  it('sets the maximum, which show then reports', async () => {
    expect(await run('set-key-rate-limit-max', '--organization', organizationId, '--max', '5000')).toEqual({
      exitCode: 0,
      lines: ["Acme's members may now give an API key up to 5000 requests per minute."],
    });
    expect(await storedMax()).toBe(5000);
    expect((await run('show', '--organization', organizationId)).lines[1]).toBe(
      'Key rate limit maximum: 5000 per minute (set for this organization)',
    );
  });

  it('lowers the maximum and says which active keys keep a higher limit; revoked keys do not count', async () => {
    await createApiKey(database.db, { organizationId, environment: 'live', rateLimitPerMinute: 1000 });
    await createApiKey(database.db, { organizationId, environment: 'test', rateLimitPerMinute: 200 });
    await createApiKey(database.db, { organizationId, environment: 'test' });
    const result = await run('set-key-rate-limit-max', '--organization', organizationId, '--max', '100');
    expect(result).toEqual({
      exitCode: 0,
      lines: [
        "Acme's members may now give an API key up to 100 requests per minute.",
        '2 active keys have higher limits of their own and keep them (see api-keys list).',
      ],
    });
    expect((await run('show', '--organization', organizationId)).lines.slice(3)).toEqual([
      'Active API keys: 3',
      '2 active keys have higher limits of their own and keep them (see api-keys list).',
    ]);
    expect((await run('set-key-rate-limit-max', '--organization', organizationId, '--max', '500')).lines[1]).toBe(
      '1 active key has a higher limit of its own and keeps it (see api-keys list).',
    );
  });

  it("resets the maximum to main-api's default", async () => {
    await run('set-key-rate-limit-max', '--organization', organizationId, '--max', '5000');
    expect(await run('set-key-rate-limit-max', '--organization', organizationId, '--max', 'default')).toEqual({
      exitCode: 0,
      lines: [
        "Acme's key rate limit maximum is main-api's default (API_KEY_RATE_LIMIT_MAX_PER_MINUTE, 600 unless configured) again.",
      ],
    });
    expect(await storedMax()).toBeNull();
  });

  it('fails for an unknown organization with one line, and changes nothing', async () => {
    const id = crypto.randomUUID();
    const expected = { exitCode: 1, lines: [`No organization with id ${id}`] };
    expect(await run('set-key-rate-limit-max', '--organization', id, '--max', '10')).toEqual(expected);
    expect(await run('show', '--organization', id)).toEqual(expected);
    expect(await storedMax()).toBeNull();
  });

  // A well-formed id that names no organization: every other argument is checked first.
  const someId = '00000000-0000-4000-8000-000000000000';
  const set = (...args: string[]) => ['set-key-rate-limit-max', '--organization', someId, ...args];

  it.each([
    ['no command', [], 'Name a command: show, set-key-rate-limit-max or activate'],
    ['an unknown command', ['delete', '--organization', someId], 'Unknown command: delete'],
    ['an extra argument', ['show', 'all', '--organization', someId], 'Unexpected argument: all'],
    ['an unknown option', ['show', '--organisation', someId], "Unknown option '--organisation'"],
    ['no organization', ['set-key-rate-limit-max', '--max', '10'], '--organization is required'],
    [
      'an organization id that is not a UUID',
      ['show', '--organization', 'acme'],
      '--organization must be a UUID (got "acme")',
    ],
    [
      'a maximum given to show',
      ['show', '--organization', someId, '--max', '10'],
      '--max belongs to set-key-rate-limit-max',
    ],
    ['no maximum', set(), '--max is required'],
    [
      'a zero maximum',
      set('--max', '0'),
      '--max must be a whole number of requests per minute from 1 to 100000, or default',
    ],
    ['a maximum above the absolute bound', set('--max', '100001'), '--max must be a whole number'],
    ['a fractional maximum', set('--max', '1.5'), '--max must be a whole number'],
    ['a negative maximum', set('--max=-5'), '--max must be a whole number'],
    ['a maximum in words', set('--max', 'lots'), '--max must be a whole number'],
  ])('refuses %s with the usage, before opening any database', (_label, args, message) => {
    const result = parseOrganizationsCommand(args);
    expect(result).not.toHaveProperty('execute');
    expect(result).toMatchObject({ exitCode: 2 });
    const { lines } = result as { lines: string[] };
    expect(lines[0]).toContain(message);
    expect(lines.at(-1)).toContain('A PGlite folder can be opened by one process at a time');
  });

  it('prints the usage on --help', async () => {
    const result = await run('--help');
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toContain(
      'organizations set-key-rate-limit-max --organization <id> --max <per minute>|default',
    );
  });
});

// The package script as the README gives it, from the repository root, on a PGlite folder.
describe('the organizations command as a process', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'organizations-command-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('sets the maximum with `corepack pnpm --filter @platform/backend-api organizations ...`', async () => {
    const dataDir = path.join(scratch, 'pglite');
    const seed = await createDatabase({ dataDir });
    let organizationId: string;
    try {
      await migrateDatabase(seed);
      organizationId = (await seed.db.insert(organizations).values({ name: 'Local Ltd' }).returning())[0]!.id;
    } finally {
      await seed.close();
    }
    const args = ['pnpm', '--silent', '--filter', '@platform/backend-api', 'organizations', 'set-key-rate-limit-max'];
    const result = await new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('corepack', [...args, '--organization', organizationId, '--max', '2400'], {
        cwd: findRepositoryRoot()!,
        env: {
          ...process.env,
          COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
          DATABASE_URL: '',
          LOCAL_DATA_DIR: '',
          PGLITE_DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    });
    expect(result, result.stderr).toEqual({
      exitCode: 0,
      stdout: "Local Ltd's members may now give an API key up to 2400 requests per minute.\n",
      stderr: '',
    });
    const check = await createDatabase({ dataDir });
    try {
      const [row] = await check.db.select().from(organizations).where(eq(organizations.id, organizationId));
      expect(row?.maxKeyRateLimitPerMinute).toBe(2400);
    } finally {
      await check.close();
    }
  });
});
