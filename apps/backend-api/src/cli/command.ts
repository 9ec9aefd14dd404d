import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type ApiKeyEnvironment, apiKeyEnvironments, type Database, isUuid } from '@platform/db';

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

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
type OptionValues<Options extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: Options & { help: { type: 'boolean' } } }>
>['values'];

/**
 * The front of every command line: `--help`, exactly one of `commands`, and the options parsed with node's
 * parseArgs. Anything else is a usage error, answered without a database.
 */
export function readCommandLine<Command extends string, const Options extends OptionsConfig>(
  args: readonly string[],
  usage: string,
  commands: readonly Command[],
  options: Options,
): CommandResult | { command: Command; values: OptionValues<Options> } {
  let parsed: { positionals: string[]; values: unknown };
  try {
    parsed = parseArgs({
      // `pnpm <command> -- create ...` passes the separator through.
      args: args.filter((arg) => arg !== '--'),
      allowPositionals: true,
      options: { ...options, help: { type: 'boolean' } },
    });
  } catch (error) {
    return usageError((error as Error).message, usage);
  }
  const { positionals, values } = parsed;
  if ((values as { help?: boolean }).help) return { exitCode: 0, lines: [usage] };
  const [command, ...extra] = positionals;
  if (command === undefined) return usageError(`Name a command: ${spokenList(commands)}`, usage);
  if (extra.length > 0) return usageError(`Unexpected argument: ${extra[0]}`, usage);
  const known = commands.find((name) => name === command);
  if (known === undefined) return usageError(`Unknown command: ${command}`, usage);
  return { command: known, values: values as OptionValues<Options> };
}

/** `--organization`: required, a UUID. */
export function organizationOption(
  value: string | undefined,
  usage: string,
): CommandResult | { organizationId: string } {
  if (value === undefined) return usageError('--organization is required', usage);
  const problem = uuidProblem('--organization', value);
  return problem === undefined ? { organizationId: value } : usageError(problem, usage);
}

/** `--environment`: required, live or test. */
export function environmentOption(
  value: string | undefined,
  usage: string,
): CommandResult | { environment: ApiKeyEnvironment } {
  const environment = apiKeyEnvironments.find((name) => name === value);
  return environment === undefined ? usageError('--environment must be live or test', usage) : { environment };
}

/** Whether a step of parsing ended in an answer (a usage error or help) rather than a value. */
export function isAnswer<Value extends object>(step: CommandResult | Value): step is CommandResult {
  return 'exitCode' in step;
}

/** `a, b or c`, as the usage lines read. */
function spokenList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
