import { createApiKey, listActiveApiKeys, normaliseApiKeyName, revokeApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { findOrganization } from '@platform/organizations';
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
  uuidProblem,
} from './command.js';

export const apiKeysUsage = `Manage an organization's API keys.

  api-keys create --organization <id> --environment live|test [--name <name>] [--rate-limit <per minute>]
  api-keys list   --organization <id>
  api-keys revoke --id <key id>

The secret of a new key is printed once. Uses DATABASE_URL, or else the local start's PGlite folder
(.data/pglite at the repository root; LOCAL_DATA_DIR or PGLITE_DATA_DIR name another), migrating it first.
A PGlite folder can be opened by one process at a time: stop the local start first.`;

// The absolute bounds of main-api's POST /v1/api-keys. An operator's key is not held to its organization's
// maximum (the organizations command), which bounds only what members choose themselves.
const RATE_LIMIT_MAX = 100_000;

const usage = (message: string) => usageError(message, apiKeysUsage);

/** Parses an `api-keys` command line; the mistakes in it are answered without a database. */
export function parseApiKeysCommand(args: readonly string[]): ParsedCommand {
  const line = readCommandLine(args, apiKeysUsage, ['create', 'list', 'revoke'], {
    organization: { type: 'string' },
    environment: { type: 'string' },
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    id: { type: 'string' },
  });
  if (isAnswer(line)) return line;
  const { command, values } = line;

  if (command === 'revoke') {
    if (values.id === undefined) return usage('--id is required');
    const problem = uuidProblem('--id', values.id);
    if (problem !== undefined) return usage(problem);
    const id = values.id;
    return { execute: (db) => revoke(db, id) };
  }

  const organization = organizationOption(values.organization, apiKeysUsage);
  if (isAnswer(organization)) return organization;
  const { organizationId } = organization;
  if (command === 'list') return { execute: (db) => list(db, organizationId) };

  const environment = environmentOption(values.environment, apiKeysUsage);
  if (isAnswer(environment)) return environment;
  // The same rules as POST /v1/api-keys.
  const name = values.name === undefined ? undefined : normaliseApiKeyName(values.name);
  if (typeof name === 'object') return usage(`--name ${name.problem}`);
  let rateLimitPerMinute: number | undefined;
  if (values['rate-limit'] !== undefined) {
    rateLimitPerMinute = /^\d+$/.test(values['rate-limit']) ? Number(values['rate-limit']) : Number.NaN;
    if (!(rateLimitPerMinute >= 1 && rateLimitPerMinute <= RATE_LIMIT_MAX)) {
      return usage(`--rate-limit must be a whole number of requests per minute from 1 to ${RATE_LIMIT_MAX}`);
    }
  }
  const input = {
    organizationId,
    environment: environment.environment,
    ...(name === undefined ? {} : { name }),
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
  };
  return { execute: (db) => create(db, input) };
}

/** The `api-keys` command without the process around it: parses `args`, works on `db`, says what happened. */
export function runApiKeysCommand(args: readonly string[], db: Database): Promise<CommandResult> {
  return runParsed(parseApiKeysCommand(args), db);
}

async function create(db: Database, input: Parameters<typeof createApiKey>[1]): Promise<CommandResult> {
  const organization = await findOrganization(db, input.organizationId);
  if (organization === undefined) return failure(`No organization with id ${input.organizationId}`);
  // The rule of POST /v1/api-keys (docs/decisions.md#going-live): live keys wait for the activation.
  if (input.environment === 'live' && organization.activatedAt === null) {
    return failure(
      `${organization.name} is not activated: live keys unlock once its owner's business verification is verified ` +
        '(or run organizations activate). Test keys work now.',
    );
  }
  const key = await createApiKey(db, input);
  return {
    exitCode: 0,
    lines: [
      `Created ${key.environment} key ${key.id} (${key.name}) for ${organization.name}.`,
      `Secret (shown once, store it now): ${key.secret}`,
    ],
  };
}

async function list(db: Database, organizationId: string): Promise<CommandResult> {
  if ((await findOrganization(db, organizationId)) === undefined) {
    return failure(`No organization with id ${organizationId}`);
  }
  const rows = await listActiveApiKeys(db, organizationId);
  if (rows.length === 0) return { exitCode: 0, lines: ['No active keys.'] };
  return {
    exitCode: 0,
    lines: rows.map((row) =>
      [
        row.id,
        `sk_${row.environment}_...${row.lastFour}`,
        row.name,
        `${row.rateLimitPerMinute ?? 'default'} per minute`,
        `created ${row.createdAt.toISOString()}`,
        // Recorded at most once a minute, after the request (plugins/api-key-usage.ts).
        `last used ${row.lastUsedAt?.toISOString() ?? 'never'}`,
      ].join('  '),
    ),
  };
}

async function revoke(db: Database, id: string): Promise<CommandResult> {
  if (!(await revokeApiKey(db, { id }))) return failure(`No active key with id ${id}`);
  return { exitCode: 0, lines: [`Revoked key ${id}. It stops working at once.`] };
}
