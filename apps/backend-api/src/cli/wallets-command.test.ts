import { organizations, wallets } from '@platform/db/schema';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/app-fixtures.js';
import { truncateVerificationData, walletState } from '../../test/verification-fixtures.js';
import { parseWalletsCommand, runWalletsCommand } from './wallets-command.js';

describe('the wallets command', () => {
  const database = useTestDatabase();
  let organizationId: string;

  beforeEach(async () => {
    await truncateVerificationData(database.db);
    await database.db.delete(organizations);
    const [organization] = await database.db.insert(organizations).values({ name: 'Acme' }).returning();
    organizationId = organization!.id;
  });

  const run = (...args: string[]) => runWalletsCommand(args, database.db);

  it('credits a wallet and says the new balance', async () => {
    const result = await run('credit', '--organization', organizationId, '--environment', 'live', '--amount', '10000');
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toMatch(
      /^Credited KES 10,000 to the live wallet \(reference manual:[0-9a-f-]{36}\): available KES 10,000, held KES 0\.$/,
    );
    expect(await walletState(database.db, organizationId, 'live')).toEqual({
      available: 10_000,
      held: 0,
      ledger: { available: 10_000, held: 0 },
    });
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(0);
  });

  it('credits again without a reference, but only once with the same reference', async () => {
    await run('credit', '--organization', organizationId, '--environment', 'test', '--amount', '100');
    await run('credit', '--organization', organizationId, '--environment', 'test', '--amount', '100');
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(200);

    const args = [
      'credit',
      '--organization',
      organizationId,
      '--environment',
      'test',
      '--amount',
      '500',
      '--reference',
      'invoice-17',
    ];
    expect((await run(...args)).exitCode).toBe(0);
    const again = await run(...args);
    expect(again).toEqual({
      exitCode: 0,
      lines: ['The credit invoice-17 was already made; nothing changed: available KES 700, held KES 0.'],
    });
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(700);
  });

  it('refuses a reference already used for another wallet', async () => {
    await run(
      'credit',
      '--organization',
      organizationId,
      '--environment',
      'live',
      '--amount',
      '5',
      '--reference',
      'shared',
    );
    const result = await run(
      'credit',
      '--organization',
      organizationId,
      '--environment',
      'test',
      '--amount',
      '5',
      '--reference',
      'shared',
    );
    expect(result).toEqual({ exitCode: 1, lines: ['The reference shared was already used to credit another wallet'] });
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(0);
  });

  it('shows both wallets', async () => {
    await run('credit', '--organization', organizationId, '--environment', 'live', '--amount', '1234567');
    expect(await run('show', '--organization', organizationId)).toEqual({
      exitCode: 0,
      lines: ['live: available KES 1,234,567, held KES 0', 'test: available KES 0, held KES 0'],
    });
  });

  // A well-formed id that names no organization: every other argument is checked first.
  const someId = '00000000-0000-4000-8000-000000000000';

  it.each([
    ['no command', [], 'Name a command: credit or show'],
    ['an unknown command', ['debit', '--organization', someId], 'Unknown command: debit'],
    ['an extra argument', ['show', 'now', '--organization', someId], 'Unexpected argument: now'],
    ['no organization', ['credit', '--environment', 'live', '--amount', '1'], '--organization is required'],
    [
      'an organization id that is not a UUID',
      ['show', '--organization', 'acme'],
      '--organization must be a UUID (got "acme")',
    ],
    [
      'a bad environment',
      ['credit', '--organization', someId, '--environment', 'prod', '--amount', '1'],
      '--environment must be live or test',
    ],
    [
      'a fractional amount',
      ['credit', '--organization', someId, '--environment', 'live', '--amount', '10.5'],
      '--amount must be a whole number of KES above 0',
    ],
    [
      'a zero amount',
      ['credit', '--organization', someId, '--environment', 'live', '--amount', '0'],
      '--amount must be a whole number of KES above 0',
    ],
    [
      'an amount in words',
      ['credit', '--organization', someId, '--environment', 'live', '--amount', 'ten'],
      '--amount must be a whole number of KES above 0',
    ],
    [
      'an empty reference',
      ['credit', '--organization', someId, '--environment', 'live', '--amount', '1', '--reference', ' '],
      '--reference must not be empty',
    ],
    ['an unknown option', ['credit', '--organisation', 'x'], "Unknown option '--organisation'"],
  ])('refuses %s with the usage, before opening any database', (_label, args, message) => {
    const result = parseWalletsCommand(args);
    expect(result).not.toHaveProperty('execute');
    expect(result).toMatchObject({ exitCode: 2 });
    const { lines } = result as { lines: string[] };
    expect(lines[0]).toContain(message);
    expect(lines.at(-1)).toContain('wallets credit --organization <id>');
  });

  it('fails for an unknown organization without writing', async () => {
    const id = crypto.randomUUID();
    const result = await run('credit', '--organization', id, '--environment', 'live', '--amount', '10');
    expect(result).toEqual({ exitCode: 1, lines: [`No organization with id ${id}`] });
    expect(await run('show', '--organization', id)).toEqual({ exitCode: 1, lines: [`No organization with id ${id}`] });
    expect(await database.db.select().from(wallets)).toEqual([]);
  });

  it('prints the usage on --help', async () => {
    const result = await run('--help');
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toContain('wallets show   --organization <id>');
  });
});
