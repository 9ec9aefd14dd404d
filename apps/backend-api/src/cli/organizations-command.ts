import { countActiveApiKeys } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { findOrganization, updateKeyRateLimitMaximum } from '@platform/organizations';
import { activateOrganization } from '@platform/verification-lifecycle';
import {
  type CommandResult,
  failure,
  isAnswer,
  organizationOption,
  type ParsedCommand,
  readCommandLine,
  runParsed,
  usageError,
} from './command.js';

export const organizationsUsage = `Show an organization and set the highest rate limit its members may give an API key.

  organizations show                  --organization <id>
  organizations set-key-rate-limit-max --organization <id> --max <per minute>|default
  organizations activate              --organization <id>

--max is 1 to 100000 requests per minute; default removes the organization's own maximum, so main-api's
API_KEY_RATE_LIMIT_MAX_PER_MINUTE (600 unless configured) applies again. The maximum bounds what members
may set in POST /v1/api-keys; existing keys keep their limit.
activate unlocks the organization's live API keys and live top-ups without its business verification (an
operator's decision, recorded in its audit log, its owners notified); once, like the verification.
Uses DATABASE_URL, or else the local start's PGlite folder (.data/pglite at the repository root;
LOCAL_DATA_DIR or PGLITE_DATA_DIR name another), migrating it first.
A PGlite folder can be opened by one process at a time: stop the local start first.`;

// The absolute bound of a key's rate limit in main-api's POST /v1/api-keys and the api-keys command.
const MAX_MAX = 100_000;
const DEFAULT_MAX = "main-api's default (API_KEY_RATE_LIMIT_MAX_PER_MINUTE, 600 unless configured)";

const usage = (message: string) => usageError(message, organizationsUsage);

/** Parses an `organizations` command line; the mistakes in it are answered without a database. */
export function parseOrganizationsCommand(args: readonly string[]): ParsedCommand {
  const line = readCommandLine(args, organizationsUsage, ['show', 'set-key-rate-limit-max', 'activate'], {
    organization: { type: 'string' },
    max: { type: 'string' },
  });
  if (isAnswer(line)) return line;
  const { command, values } = line;
  const organization = organizationOption(values.organization, organizationsUsage);
  if (isAnswer(organization)) return organization;
  const { organizationId } = organization;
  if (command === 'show' || command === 'activate') {
    if (values.max !== undefined) return usage('--max belongs to set-key-rate-limit-max');
    return { execute: (db) => (command === 'show' ? show(db, organizationId) : activate(db, organizationId)) };
  }

  if (values.max === undefined) return usage('--max is required');
  let max: number | null = null;
  if (values.max !== 'default') {
    max = /^\d+$/.test(values.max) ? Number(values.max) : Number.NaN;
    if (!(max >= 1 && max <= MAX_MAX)) {
      return usage(`--max must be a whole number of requests per minute from 1 to ${MAX_MAX}, or default`);
    }
  }
  return { execute: (db) => setKeyRateLimitMax(db, organizationId, max) };
}

/** The `organizations` command without the process around it: parses `args`, works on `db`, says what happened. */
export function runOrganizationsCommand(args: readonly string[], db: Database): Promise<CommandResult> {
  return runParsed(parseOrganizationsCommand(args), db);
}

async function show(db: Database, organizationId: string): Promise<CommandResult> {
  const organization = await findOrganization(db, organizationId);
  if (organization === undefined) return failure(`No organization with id ${organizationId}`);
  const max = organization.maxKeyRateLimitPerMinute;
  const lines = [
    `${organization.name} (${organization.id}), created ${organization.createdAt.toISOString()}`,
    `Key rate limit maximum: ${max === null ? DEFAULT_MAX : `${max} per minute (set for this organization)`}`,
    `Activated: ${organization.activatedAt === null ? 'no (live keys and live top-ups locked)' : organization.activatedAt.toISOString()}`,
    `Active API keys: ${await countActiveApiKeys(db, organizationId)}`,
  ];
  if (max !== null) lines.push(...aboveMaximum(await countActiveApiKeys(db, organizationId, max)));
  return { exitCode: 0, lines };
}

/** Activates the organization as an operator (docs/decisions.md#going-live). */
async function activate(db: Database, organizationId: string): Promise<CommandResult> {
  const organization = await findOrganization(db, organizationId);
  if (organization === undefined) return failure(`No organization with id ${organizationId}`);
  if (organization.retiredAt !== null) return failure(`${organization.name} is retired: it cannot be activated`);
  if (!(await activateOrganization(db, organizationId, { operator: 'organizations_command' }))) {
    return { exitCode: 0, lines: [`${organization.name} is activated already; nothing changed.`] };
  }
  return {
    exitCode: 0,
    lines: [`${organization.name} is activated: its live API keys and live top-ups are unlocked.`],
  };
}

async function setKeyRateLimitMax(db: Database, organizationId: string, max: number | null): Promise<CommandResult> {
  const organization = await updateKeyRateLimitMaximum(db, organizationId, max);
  if (organization === undefined) return failure(`No organization with id ${organizationId}`);
  if (max === null) {
    return { exitCode: 0, lines: [`${organization.name}'s key rate limit maximum is ${DEFAULT_MAX} again.`] };
  }
  return {
    exitCode: 0,
    lines: [
      `${organization.name}'s members may now give an API key up to ${max} requests per minute.`,
      ...aboveMaximum(await countActiveApiKeys(db, organizationId, max)),
    ],
  };
}

/** The maximum applies to new keys only: say which existing ones keep a higher limit. */
function aboveMaximum(keys: number): string[] {
  if (keys === 0) return [];
  return [
    keys === 1
      ? '1 active key has a higher limit of its own and keeps it (see api-keys list).'
      : `${keys} active keys have higher limits of their own and keep them (see api-keys list).`,
  ];
}
