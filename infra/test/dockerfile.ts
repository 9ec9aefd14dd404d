// A Dockerfile read as text: instructions grouped by build stage, enough to check what the final image runs.

interface Instruction {
  /** Upper-case keyword: FROM, RUN, ENV, USER... */
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  /** The FROM image with build arguments substituted by their defaults. */
  image: string;
  name?: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARG defaults declared before the first FROM. */
  globalArgs: Map<string, string>;
  stages: Stage[];
}

function instructionsOf(text: string): Instruction[] {
  const logicalLines: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    // Comments may sit between continuation lines; they never end an instruction.
    if (trimmed.startsWith('#') || (trimmed === '' && pending === '')) continue;
    if (trimmed.endsWith('\\')) {
      pending += `${trimmed.slice(0, -1).trim()} `;
      continue;
    }
    logicalLines.push(`${pending}${trimmed}`.trim());
    pending = '';
  }
  if (pending !== '') logicalLines.push(pending.trim());
  return logicalLines
    .filter((line) => line !== '')
    .map((line) => {
      const keyword = /^\S+/.exec(line)?.[0] ?? '';
      return { keyword: keyword.toUpperCase(), args: line.slice(keyword.length).trim() };
    });
}

function substitute(value: string, args: ReadonlyMap<string, string>): string {
  return value.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced?: string, bare?: string) => {
    return args.get(braced ?? bare ?? '') ?? whole;
  });
}

export function parseDockerfile(text: string): Dockerfile {
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const instruction of instructionsOf(text)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (match?.[1] === undefined) throw new Error(`unreadable FROM ${instruction.args}`);
      stages.push({
        image: substitute(match[1], globalArgs),
        ...(match[2] === undefined ? {} : { name: match[2] }),
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) {
      if (instruction.keyword !== 'ARG') throw new Error(`${instruction.keyword} before the first FROM`);
      const [name = '', value = ''] = instruction.args.split('=', 2);
      globalArgs.set(name.trim(), value.trim());
      continue;
    }
    stage.instructions.push(instruction);
  }
  return { globalArgs, stages };
}

/** The last stage: what `docker build` without --target produces. */
export function finalStage(dockerfile: Dockerfile): Stage {
  const stage = dockerfile.stages.at(-1);
  if (stage === undefined) throw new Error('the Dockerfile has no FROM');
  return stage;
}

export function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword).map(({ args }) => args);
}

/** Ports of the stage's EXPOSE instructions (`3000`, `3000/tcp`). */
export function exposedPorts(stage: Stage): number[] {
  return argsOf(stage, 'EXPOSE')
    .flatMap((args) => args.split(/\s+/))
    .map((port) => Number(port.split('/')[0]));
}

/** Variables set by the stage's ENV instructions (`ENV A=1 B=2` form). */
export function environmentOf(stage: Stage): Map<string, string> {
  const variables = new Map<string, string>();
  for (const args of argsOf(stage, 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const separator = pair.indexOf('=');
      if (separator <= 0) throw new Error(`ENV ${args}: use the KEY=value form`);
      variables.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
  }
  return variables;
}

/** The user the stage's last USER instruction switches to (`node`, `1000:1000`), or undefined for root. */
export function finalUser(stage: Stage): string | undefined {
  return argsOf(stage, 'USER').at(-1);
}

/** The exec-form (JSON array) arguments of the stage's last `keyword` instruction, e.g. CMD. */
export function execForm(stage: Stage, keyword: 'CMD' | 'ENTRYPOINT'): string[] | undefined {
  const args = argsOf(stage, keyword).at(-1);
  return args === undefined ? undefined : (JSON.parse(args) as string[]);
}

/** The exec-form command of the stage's HEALTHCHECK, after its options (`--interval=...`). */
export function healthcheckCommand(stage: Stage): string[] | undefined {
  const args = argsOf(stage, 'HEALTHCHECK').at(-1);
  const match = args === undefined ? null : /\bCMD\s+(\[.*\])$/.exec(args);
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string[]);
}
