import { readFileSync } from 'node:fs';

// Summaries of a V8 CPU profile (`node --cpu-prof`): where a service's CPU time went, by function and by
// package, counted as self time (samples whose top frame is that function).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  /** Microseconds on the monotonic clock (the one process.hrtime reads, in every process of the machine). */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface ProfileEntry {
  name: string;
  /** Share of all samples, 0 to 1. */
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of samples the process spent idle (waiting for I/O). */
  idle: number;
  byFunction: ProfileEntry[];
  byPackage: ProfileEntry[];
  /**
   * Each sample counted to the package of the nearest JavaScript frame on its stack that is neither Node's core nor
   * native: a system call or a string copy goes to the package that asked for it (the answer's `writev` to fastify,
   * a statement's to postgres, the log line's to pino), so a service and its baseline compare package by package.
   */
  byCallingPackage: ProfileEntry[];
  /** Self time plus the time of everything called beneath, for frames matching `inclusivePatterns`. */
  inclusive: ProfileEntry[];
}

export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Which package a script belongs to: `fastify`, `@platform/db`, `node:internal`, ... */
export function packageOf(url: string): string {
  if (url === '') return '(native or V8)';
  if (url.startsWith('node:')) return 'node (core)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scopeOrName, name] = url.slice(modules + '/node_modules/'.length).split('/');
    return scopeOrName?.startsWith('@') ? `${scopeOrName}/${name}` : (scopeOrName ?? url);
  }
  const workspace = /\/(apps|packages|tools)\/([^/]+)\//.exec(url);
  if (workspace) return `@platform/${workspace[2]}`;
  return url;
}

export interface SummaryOptions {
  top?: number;
  inclusivePatterns?: RegExp[];
  /** Only samples inside this window (microseconds, monotonic clock): the measured run, not the boot. */
  window?: { fromUs: number; toUs: number };
}

export function summariseProfile(profile: CpuProfile, options: SummaryOptions = {}): ProfileSummary {
  const { top = 25, inclusivePatterns = [], window } = options;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const selfTime = new Map<number, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window !== undefined && (at < window.fromUs || at > window.toUs)) return;
    total += delta;
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  });

  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const byCallingPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idle = 0;
  for (const [id, time] of selfTime) {
    const frame = nodes.get(id)?.callFrame;
    if (frame === undefined) continue;
    if (frame.functionName === '(idle)') idle += time;
    const where = frame.url === '' ? '' : ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    add(byFunction, `${frame.functionName || '(anonymous)'}${where}`, time);
    const own = frame.functionName.startsWith('(') ? frame.functionName : packageOf(frame.url);
    add(byPackage, own, time);
    add(byCallingPackage, callingPackage(id, nodes, parents) ?? own, time);

    // Each matching frame on the sample's stack gets the time once.
    const counted = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
      const callFrame = nodes.get(current)?.callFrame;
      if (callFrame === undefined) break;
      for (const pattern of inclusivePatterns) {
        const label = `${callFrame.functionName} ${shortUrl(callFrame.url)}`;
        if (pattern.test(label) && !counted.has(pattern.source)) {
          counted.add(pattern.source);
          add(inclusive, pattern.source, time);
        }
      }
    }
  }

  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => ({ name, share: total > 0 ? time / total : 0 }));
  return {
    totalMs: total / 1000,
    idle: total > 0 ? idle / total : 0,
    byFunction: ranked(byFunction),
    byPackage: ranked(byPackage),
    byCallingPackage: ranked(byCallingPackage),
    inclusive: ranked(inclusive),
  };
}

/** The package of the nearest frame from `id` up that is a script outside Node's core; undefined if none is. */
function callingPackage(
  id: number,
  nodes: ReadonlyMap<number, ProfileNode>,
  parents: ReadonlyMap<number, number>,
): string | undefined {
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
    const url = nodes.get(current)?.callFrame.url ?? '';
    if (url !== '' && !url.startsWith('node:')) return packageOf(url);
  }
  return undefined;
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const workspace = /\/((apps|packages|tools)\/.+)$/.exec(url);
  return workspace?.[1] ?? url.replace(/^file:\/\//, '');
}

export function renderProfileSummary(summary: ProfileSummary): string {
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`;
  return [
    `${summary.totalMs.toFixed(0)} ms sampled, ${percent(summary.idle)} idle`,
    '',
    'Self time by package:',
    ...summary.byPackage.map((entry) => `  ${percent(entry.share)}  ${entry.name}`),
    '',
    'Self time by function:',
    ...summary.byFunction.map((entry) => `  ${percent(entry.share)}  ${entry.name}`),
    '',
    'By calling package (system calls and native work counted to the package that asked for them):',
    ...summary.byCallingPackage.map((entry) => `  ${percent(entry.share)}  ${entry.name}`),
    ...(summary.inclusive.length === 0
      ? []
      : [
          '',
          'Inclusive time (the frame and everything beneath it):',
          ...summary.inclusive.map((entry) => `  ${percent(entry.share)}  ${entry.name}`),
        ]),
  ].join('\n');
}

/** A profile's summary and the requests answered in its window. */
export interface ProfiledRun {
  summary: ProfileSummary;
  requests: number;
}

/**
 * Microseconds of the main thread's busy time per request, by calling package, for a service and its same-SQL
 * baseline side by side, the largest difference first: what the service spends beyond the baseline, and where.
 */
export function renderPerRequestComparison(service: ProfiledRun, baseline: ProfiledRun): string {
  const perRequest = (run: ProfiledRun) =>
    new Map(
      run.summary.byCallingPackage
        .filter((entry) => entry.name !== '(idle)')
        .map((entry) => [entry.name, run.requests > 0 ? (entry.share * run.summary.totalMs * 1000) / run.requests : 0]),
    );
  const ours = perRequest(service);
  const theirs = perRequest(baseline);
  const names = [...new Set([...ours.keys(), ...theirs.keys()])];
  const rows = names
    .map((name) => ({ name, service: ours.get(name) ?? 0, baseline: theirs.get(name) ?? 0 }))
    .sort((a, b) => b.service - b.baseline - (a.service - a.baseline));
  const sum = (map: Map<string, number>) => [...map.values()].reduce((total, value) => total + value, 0);
  const us = (value: number) => value.toFixed(0).padStart(6);
  return [
    'Busy time per request by calling package, in µs (service, same-SQL baseline, difference):',
    ...rows.map((row) => `  ${us(row.service)}  ${us(row.baseline)}  ${us(row.service - row.baseline)}  ${row.name}`),
    `  ${us(sum(ours))}  ${us(sum(theirs))}  ${us(sum(ours) - sum(theirs))}  (all)`,
  ].join('\n');
}
