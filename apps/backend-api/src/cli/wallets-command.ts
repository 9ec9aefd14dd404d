import { apiKeyEnvironments, type Database } from '@platform/db';
import { findOrganization } from '@platform/organizations';
import { formatKes } from '@platform/pricing';
import { creditWallet, walletBalances } from '../modules/wallet/index.js';
import {
  type CommandResult,
  environmentOption,
  failure,
  isAnswer,
  organizationOption,
  type ParsedCommand,
  readCommandLine,
  runParsed,
  usageError,
} from './command.js';

export const walletsUsage = `Credit and inspect an organization's wallets (whole KES).

  wallets credit --organization <id> --environment live|test --amount <KES> [--reference <reference>]
  wallets show   --organization <id>

A credit with a --reference is made once: running the same command again changes nothing.
Uses DATABASE_URL, or else the local start's PGlite folder (.data/pglite at the repository root;
LOCAL_DATA_DIR or PGLITE_DATA_DIR name another), migrating it first.
A PGlite folder can be opened by one process at a time: stop the local start first.`;

const usage = (message: string) => usageError(message, walletsUsage);

/** Parses a `wallets` command line; the mistakes in it are answered without a database. */
export function parseWalletsCommand(args: readonly string[]): ParsedCommand {
  const line = readCommandLine(args, walletsUsage, ['credit', 'show'], {
    organization: { type: 'string' },
    environment: { type: 'string' },
    amount: { type: 'string' },
    reference: { type: 'string' },
  });
  if (isAnswer(line)) return line;
  const { command, values } = line;
  const organization = organizationOption(values.organization, walletsUsage);
  if (isAnswer(organization)) return organization;
  const { organizationId } = organization;
  if (command === 'show') return { execute: (db) => show(db, organizationId) };

  const environment = environmentOption(values.environment, walletsUsage);
  if (isAnswer(environment)) return environment;
  const amount = /^\d+$/.test(values.amount ?? '') ? Number(values.amount) : Number.NaN;
  if (!Number.isSafeInteger(amount) || amount < 1) return usage('--amount must be a whole number of KES above 0');
  const reference = values.reference;
  if (reference !== undefined && reference.trim() === '') return usage('--reference must not be empty');
  return {
    execute: (db) =>
      credit(db, {
        organizationId,
        environment: environment.environment,
        amount,
        ...(reference === undefined ? {} : { reference }),
      }),
  };
}

/** The `wallets` command without the process around it: parses `args`, works on `db`, says what happened. */
export function runWalletsCommand(args: readonly string[], db: Database): Promise<CommandResult> {
  return runParsed(parseWalletsCommand(args), db);
}

async function credit(db: Database, input: Parameters<typeof creditWallet>[1]): Promise<CommandResult> {
  let result: Awaited<ReturnType<typeof creditWallet>>;
  try {
    result = await creditWallet(db, input);
  } catch (error) {
    // creditWallet says why it refused (unknown organization, a reference used for another wallet).
    return failure((error as Error).message);
  }
  const balance = `available ${formatKes(result.available)}, held ${formatKes(result.held)}`;
  return {
    exitCode: 0,
    lines: [
      result.applied
        ? `Credited ${formatKes(input.amount)} to the ${input.environment} wallet (reference ${result.reference}): ${balance}.`
        : `The credit ${result.reference} was already made; nothing changed: ${balance}.`,
    ],
  };
}

async function show(db: Database, organizationId: string): Promise<CommandResult> {
  if ((await findOrganization(db, organizationId)) === undefined) {
    return failure(`No organization with id ${organizationId}`);
  }
  const lines: string[] = [];
  for (const environment of apiKeyEnvironments) {
    const { available, held } = await walletBalances(db, { organizationId, environment });
    lines.push(`${environment}: available ${formatKes(available)}, held ${formatKes(held)}`);
  }
  return { exitCode: 0, lines };
}
