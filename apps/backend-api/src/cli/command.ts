import { type Database, organizations } from '@platform/db';
import { eq } from 'drizzle-orm';

export interface CommandResult {
  exitCode: number;
  /** Lines for stdout (exit code 0) or stderr (otherwise). */
  lines: string[];
}

/**
 * What parsing a command line gives: the answer itself (help, or a mistake in the arguments, which needs
 * no database), or the work left to do on one.
 */
export type ParsedCommand = CommandResult | { execute: (db: Database) => Promise<CommandResult> };

/** The answer of a parsed command line, doing the work it left on `db` if any. */
export async function runParsed(parsed: ParsedCommand, db: Database): Promise<CommandResult> {
  return 'execute' in parsed ? parsed.execute(db) : parsed;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Exit code 2 with the message, then the usage: the command line itself is wrong. */
export function usageError(message: string, usage: string): CommandResult {
  return { exitCode: 2, lines: [message, '', usage] };
}

/** Exit code 1 with one line: the arguments were well formed but the work could not be done. */
export function failure(message: string): CommandResult {
  return { exitCode: 1, lines: [message] };
}

/** Checks that an --option holding an id is a UUID, naming the option when it is not. */
export function uuidProblem(option: string, value: string): string | undefined {
  return isUuid(value) ? undefined : `${option} must be a UUID (got ${JSON.stringify(value)})`;
}

export async function findOrganization(db: Database, id: string): Promise<{ id: string; name: string } | undefined> {
  const [organization] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, id));
  return organization;
}
