import { parseArgs } from 'node:util';
import { apiKeyEnvironments, type Database, ensureWallet, organizations } from '@platform/db';
import { eq } from 'drizzle-orm';
import { creditWallet } from '../modules/wallet/credit.js';

export const walletsUsage = `Credit and inspect an organization's wallets (whole KES).

  wallets credit --organization <id> --environment live|test --amount <KES> [--reference <reference>]
  wallets show   --organization <id>

A credit with a --reference is made once: running the same command again changes nothing.
Uses DATABASE_URL, or the local PGlite folder (PGLITE_DATA_DIR, default .data/pglite) when it is unset.
A PGlite folder can be opened by one process at a time: stop the local start first.`;

export interface CommandResult {
  exitCode: number;
  /** Lines for stdout (exit code 0) or stderr (otherwise). */
  lines: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const kes = (amount: number) => `${amount.toLocaleString('en-US')} KES`;

/** The `wallets` command without the process around it: parses `args`, works on `db`, says what happened. */
export async function runWalletsCommand(args: readonly string[], db: Database): Promise<CommandResult> {
  let parsed;
  try {
    parsed = parseArgs({
      // `pnpm wallets -- credit ...` passes the separator through.
      args: args.filter((arg) => arg !== '--'),
      allowPositionals: true,
      options: {
        organization: { type: 'string' },
        environment: { type: 'string' },
        amount: { type: 'string' },
        reference: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (values.help) return { exitCode: 0, lines: [walletsUsage] };
  if (command === undefined) return usageError('Name a command');

  const organizationId = values.organization;
  if (organizationId === undefined) return usageError('--organization is required');
  try {
    if (command === 'credit') {
      const environment = apiKeyEnvironments.find((name) => name === values.environment);
      if (environment === undefined) return usageError('--environment must be live or test');
      const amount = /^\d+$/.test(values.amount ?? '') ? Number(values.amount) : Number.NaN;
      if (!Number.isSafeInteger(amount) || amount < 1) return usageError('--amount must be a whole number of KES above 0');
      if (values.reference !== undefined && values.reference.trim() === '') return usageError('--reference must not be empty');
      const result = await creditWallet(db, {
        organizationId,
        environment,
        amount,
        ...(values.reference === undefined ? {} : { reference: values.reference }),
      });
      const balance = `available ${kes(result.available)}, held ${kes(result.held)}`;
      return {
        exitCode: 0,
        lines: [
          result.applied
            ? `Credited ${kes(amount)} to the ${environment} wallet (reference ${result.reference}): ${balance}.`
            : `The credit ${result.reference} was already made; nothing changed: ${balance}.`,
        ],
      };
    }
    if (command === 'show') {
      if (!(await organizationExists(db, organizationId))) {
        return { exitCode: 1, lines: [`No organization with id ${organizationId}`] };
      }
      const lines: string[] = [];
      for (const environment of apiKeyEnvironments) {
        const wallet = await ensureWallet(db, { organizationId, environment });
        lines.push(`${environment}: available ${kes(wallet.availableBalance)}, held ${kes(wallet.heldBalance)}`);
      }
      return { exitCode: 0, lines };
    }
  } catch (error) {
    return { exitCode: 1, lines: [(error as Error).message] };
  }
  return usageError(`Unknown command: ${command}`);
}

async function organizationExists(db: Database, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const [organization] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id));
  return organization !== undefined;
}

function usageError(message: string): CommandResult {
  return { exitCode: 2, lines: [message, '', walletsUsage] };
}
