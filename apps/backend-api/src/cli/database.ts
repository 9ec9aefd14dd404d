import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  countAppliedMigrations,
  countCommittedMigrations,
  createDatabase,
  type DatabaseHandle,
  localDataDir,
  localPgliteDataDir,
  migrateDatabase,
  redactConnectionUrl,
} from '@platform/db';
import { type CommandResult, failure, type ParsedCommand } from './command.js';

/** Where a command works: DATABASE_URL, or else the local start's PGlite folder. */
export type CommandDatabaseTarget = { url: string; description: string } | { dataDir: string; description: string };

export function commandDatabaseTarget(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): CommandDatabaseTarget {
  if (env.DATABASE_URL)
    return { url: env.DATABASE_URL, description: `PostgreSQL at ${redactConnectionUrl(env.DATABASE_URL)}` };
  const dataDir = localPgliteDataDir(env, cwd);
  return { dataDir, description: `the PGlite folder ${dataDir}` };
}

/**
 * The answer to a parsed command line; when it has work to do, opens the target database, applies the
 * migrations it lacks, does the work and closes it. Any failure on the way is one line with exit code 1.
 * `note` receives what happened besides the answer (migrations applied).
 */
export async function answerCommand(
  parsed: ParsedCommand,
  { env = process.env, note = () => {} }: { env?: NodeJS.ProcessEnv; note?: (line: string) => void } = {},
): Promise<CommandResult> {
  if (!('execute' in parsed)) return parsed;
  const target = commandDatabaseTarget(env);
  if ('dataDir' in target) {
    if (!existsSync(target.dataDir)) {
      // An empty database would only answer "no such organization": point at the folder the user meant to use.
      return failure(
        `No database in ${target.dataDir}: run \`corepack pnpm start\` at the repository root once, or set DATABASE_URL or PGLITE_DATA_DIR`,
      );
    }
    const running = await runningLocalStart(target.dataDir, env);
    if (running !== undefined) {
      return failure(
        `The local start seems to be running (${running} answers) and ${target.dataDir} is its database, which one process at a time can open: stop it first (Ctrl-C), then run this again`,
      );
    }
  }

  let handle: DatabaseHandle;
  try {
    handle = await createDatabase(
      'url' in target ? { url: target.url, maxConnections: 1 } : { dataDir: target.dataDir },
    );
  } catch (error) {
    return failure(`Could not open ${target.description}: ${messageOf(error)}`);
  }
  try {
    const prepared = await prepare(handle, target.description, note);
    if (prepared !== undefined) return prepared;
    try {
      return await parsed.execute(handle.db);
    } catch (error) {
      return failure(messageOf(error));
    }
  } finally {
    await handle.close();
  }
}

/**
 * The URL of the local start's backend when it runs on `dataDir` and answers. A second PGlite on the same
 * folder is not refused by PGlite: its writes would be lost when the local start stops, so look first.
 */
async function runningLocalStart(dataDir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const localStartDir = localDataDir(env);
  if (path.join(localStartDir, 'pglite') !== dataDir) return undefined;
  let backendUrl: unknown;
  try {
    ({ backendUrl } = JSON.parse(readFileSync(path.join(localStartDir, 'local-credentials.json'), 'utf8')) as {
      backendUrl?: unknown;
    });
  } catch {
    return undefined; // Never started, or the file is not ours to read: nothing to look at.
  }
  if (typeof backendUrl !== 'string' || !URL.canParse(backendUrl)) return undefined;
  try {
    await fetch(new URL('/healthz', backendUrl), { signal: AbortSignal.timeout(2_000) });
    return backendUrl;
  } catch {
    return undefined;
  }
}

/** Applies the missing migrations (a folder the local start never opened has none); undefined when ready. */
async function prepare(
  handle: DatabaseHandle,
  description: string,
  note: (line: string) => void,
): Promise<CommandResult | undefined> {
  let applied: number;
  try {
    applied = await countAppliedMigrations(handle);
  } catch (error) {
    return failure(`Could not open ${description}: ${messageOf(error)}`);
  }
  const committed = countCommittedMigrations();
  // Only when some are missing: an up-to-date database is left alone, so a role without DDL rights works.
  if (applied >= committed) return undefined;
  try {
    await migrateDatabase(handle);
  } catch (error) {
    return failure(`Could not migrate ${description}: ${messageOf(error)}`);
  }
  note(`Applied ${committed - applied} migration${committed - applied === 1 ? '' : 's'} to ${description}.`);
  return undefined;
}

/** One line saying what went wrong: drizzle wraps a driver's error ("Failed query: <sql>"), so the cause. */
export function messageOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (!(current instanceof Error)) return String(current);
  // A refused connection comes as an AggregateError with an empty message and a code.
  const code = (current as { code?: unknown }).code;
  const message = current.message || (typeof code === 'string' ? code : current.name);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** Runs a command as a process: prints its answer (stdout on success, stderr otherwise) and sets the exit code. */
export async function runCommandProcess(parse: (args: readonly string[]) => ParsedCommand): Promise<void> {
  const result = await answerCommand(parse(process.argv.slice(2)), { note: (line) => console.error(line) });
  (result.exitCode === 0 ? console.log : console.error)(result.lines.join('\n'));
  process.exitCode = result.exitCode;
}
