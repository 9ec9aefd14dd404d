import { organizations } from '@platform/db';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/app-fixtures.js';
import { truncateVerificationData, walletState } from '../../test/verification-fixtures.js';
import { runWalletsCommand } from './wallets-command.js';

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
    expect(result.lines[0]).toMatch(/^Credited 10,000 KES to the live wallet \(reference manual:[0-9a-f-]{36}\): available 10,000 KES, held 0 KES\.$/);
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

    const args = ['credit', '--organization', organizationId, '--environment', 'test', '--amount', '500', '--reference', 'invoice-17'];
    expect((await run(...args)).exitCode).toBe(0);
    const again = await run(...args);
    expect(again).toEqual({ exitCode: 0, lines: ['The credit invoice-17 was already made; nothing changed: available 700 KES, held 0 KES.'] });
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(700);
  });

  it('refuses a reference already used for another wallet', async () => {
    await run('credit', '--organization', organizationId, '--environment', 'live', '--amount', '5', '--reference', 'shared');
    const result = await run('credit', '--organization', organizationId, '--environment', 'test', '--amount', '5', '--reference', 'shared');
    expect(result).toEqual({ exitCode: 1, lines: ['The reference shared was already used to credit another wallet'] });
    expect((await walletState(database.db, organizationId, 'test')).available).toBe(0);
  });

  it('shows both wallets', async () => {
    await run('credit', '--organization', organizationId, '--environment', 'live', '--amount', '1234567');
    expect(await run('show', '--organization', organizationId)).toEqual({
      exitCode: 0,
      lines: ['live: available 1,234,567 KES, held 0 KES', 'test: available 0 KES, held 0 KES'],
    });
  });

  it.each([
    ['no command', [], 'Name a command'],
    ['an unknown command', ['debit', '--organization', 'x'], 'Unknown command: debit'],
    ['no organization', ['credit', '--environment', 'live', '--amount', '1'], '--organization is required'],
    ['a bad environment', ['credit', '--organization', 'x', '--environment', 'prod', '--amount', '1'], '--environment must be live or test'],
    ['a fractional amount', ['credit', '--organization', 'x', '--environment', 'live', '--amount', '10.5'], '--amount must be a whole number of KES above 0'],
    ['a zero amount', ['credit', '--organization', 'x', '--environment', 'live', '--amount', '0'], '--amount must be a whole number of KES above 0'],
    ['an amount in words', ['credit', '--organization', 'x', '--environment', 'live', '--amount', 'ten'], '--amount must be a whole number of KES above 0'],
    ['an unknown option', ['credit', '--organisation', 'x'], "Unknown option '--organisation'"],
  ])('refuses %s with the usage', async (_label, args, message) => {
    const result = await run(...args);
    expect(result.exitCode).toBe(2);
    expect(result.lines[0]).toContain(message);
    expect(result.lines.at(-1)).toContain('wallets credit --organization <id>');
  });

  it.each([['an unknown organization', crypto.randomUUID()], ['an organization id that is not a UUID', 'acme']])(
    'fails for %s without writing',
    async (_label, id) => {
      const result = await run('credit', '--organization', id, '--environment', 'live', '--amount', '10');
      expect(result).toEqual({ exitCode: 1, lines: [`No organization with id ${id}`] });
      expect((await run('show', '--organization', id)).exitCode).toBe(1);
    },
  );

  it('prints the usage on --help', async () => {
    const result = await run('--help');
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toContain('wallets show   --organization <id>');
  });
});
