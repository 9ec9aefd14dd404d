import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { envelopeProblem } from './envelope.js';
import type { FuzzProbe, FuzzRequest } from './fuzz-request.js';
import { toInjectOptions } from './requests.js';
import type { RouteUnderTest } from './routes.js';

/** What the fuzz check needs of a service under test. */
export interface FuzzTarget {
  inject(options: InjectOptions): PromiseLike<{ statusCode: number; body: string; headers: Record<string, unknown> }>;
  /** A fingerprint of everything stored (e.g. a checksum per table), compared around refused requests. */
  snapshot(): Promise<Record<string, string>>;
  /** Error answers that may be HTML rather than the envelope: pages meant for a browser. */
  isBrowserPage?(request: FuzzRequest, contentType: unknown): boolean;
  /** Requests that must change nothing whatever they answer, e.g. forged provider callbacks. */
  mustChangeNothing?(request: FuzzRequest): boolean;
}

/** How often each route (`FuzzRequest.route`) answered each status during a run. */
export type FuzzCoverage = ReadonlyMap<string, ReadonlyMap<number, number>>;

/**
 * Sends every generated request: none may answer 5xx, every error answer is the envelope (browser pages may be
 * HTML), and a refused request (4xx), or one `mustChangeNothing` names, leaves the stored state as it was.
 * A failure reports the seed, so the run can be repeated with FUZZ_SEED. Returns what each route answered, for
 * `successCoverageProblems`.
 */
export async function checkFuzzedAnswers(
  target: FuzzTarget,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  settings: { seed: number; numRuns: number },
): Promise<FuzzCoverage> {
  const coverage = new Map<string, Map<number, number>>();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      const before = await target.snapshot();
      const response = await target.inject(toInjectOptions(request));
      const covered = request.probe === undefined ? request.route : probeCoverageKey(request.route, request.probe);
      const statuses = coverage.get(covered) ?? new Map<number, number>();
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      coverage.set(covered, statuses);
      const what = `${request.route} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
      if (response.statusCode >= 500) throw new Error(`A server error: ${what}`);
      if (request.probe !== undefined && response.statusCode < 400) {
        const payload = Buffer.isBuffer(request.payload) ? request.payload.toString('hex') : (request.payload ?? '');
        throw new Error(
          `Accepted a request that must be refused, ${probeDescriptions[request.probe]} ` +
            `(${JSON.stringify(request.url)}, ${JSON.stringify(payload)}): ${what}`,
        );
      }
      if (response.statusCode >= 400 && target.isBrowserPage?.(request, response.headers['content-type']) !== true) {
        const problem = envelopeProblem(response.body);
        if (problem !== undefined) throw new Error(`${problem} (${what})`);
      }
      if (response.statusCode >= 400 || target.mustChangeNothing?.(request) === true) {
        const changed = changedKeys(before, await target.snapshot());
        if (changed.length > 0) throw new Error(`Changed ${changed.join(', ')}: ${what}`);
      }
    }),
    { seed: settings.seed, numRuns: settings.numRuns, endOnFailure: true, reporter: reportWithSeed },
  );
  return coverage;
}

const probeDescriptions: Readonly<Record<FuzzProbe, string>> = {
  'unstorable-text': 'with text PostgreSQL cannot store',
  'not-utf8': 'with a JSON body that is not UTF-8',
  'not-one-line': 'with a single-line name that is not on one line',
  'unstorable-date': 'with a date PostgreSQL cannot be asked about',
  'two-idempotency-keys': 'with two different idempotency keys',
};

/** Where the answers to a route's probes of one kind are counted in a run's coverage. */
export function probeCoverageKey(route: string, probe: FuzzProbe = 'unstorable-text'): string {
  return `${route} (${probe === 'unstorable-text' ? 'unstorable text' : probe})`;
}

/**
 * Each kind of edge probe a run sent (FuzzProbe but unstorable text, which is held per route) must have been refused
 * with a 400 at least once, so the probes are known to reach validation and not only authentication; and each kind
 * in `expected` must have been sent. Returns the problems, one sentence each.
 */
export function edgeProbeCoverageProblems(coverage: FuzzCoverage, expected: readonly FuzzProbe[] = []): string[] {
  const problems: string[] = [];
  for (const probe of ['not-utf8', 'not-one-line', 'unstorable-date', 'two-idempotency-keys'] as const) {
    const suffix = ` (${probe})`;
    const answers = [...coverage].filter(([key]) => key.endsWith(suffix)).flatMap(([, statuses]) => [...statuses]);
    if (answers.length === 0 && expected.includes(probe)) problems.push(`sent no request ${probeDescriptions[probe]}`);
    if (answers.length > 0 && !answers.some(([status]) => status === 400)) {
      const answered = answers.map(([status, times]) => `${status} x${times}`).join(', ');
      problems.push(`no request ${probeDescriptions[probe]} was refused with 400 (${answered})`);
    }
  }
  return problems;
}

/**
 * Every route in `routes` must have refused unstorable text with a 400 at least once in a run, so the probes are
 * known to reach its validation and not only its authentication. Provider callbacks (`config.sentByProvider`) keep
 * such text instead, and are left out. Returns the problems, one sentence each.
 */
export function unstorableTextCoverageProblems(routes: readonly RouteUnderTest[], coverage: FuzzCoverage): string[] {
  const problems: string[] = [];
  for (const { method, url, config } of routes) {
    if (config['sentByProvider'] === true) continue;
    const route = `${method} ${url}`;
    const statuses = [...(coverage.get(probeCoverageKey(route)) ?? new Map<number, number>())];
    if (statuses.some(([status]) => status === 400)) continue;
    const answered = statuses.map(([status, times]) => `${status} x${times}`).join(', ') || 'never probed';
    problems.push(`${route} never refused unstorable text with 400 (${answered})`);
  }
  return problems;
}

/**
 * More requests for each route of `routes` that `problems` still names after a run (a problem starts with the
 * route's `METHOD /url`), `numRuns` of that route alone, checked as `checkFuzzedAnswers` checks them; their
 * coverage is added to `coverage`'s and the whole returned. Which of a run's requests reach a handler is the seed's
 * luck when many routes share the runs; a route still uncovered after requests of its own is the route's problem.
 */
export async function coverageToppedUp(
  target: FuzzTarget,
  coverage: FuzzCoverage,
  {
    routes,
    problems,
    requestsOf,
    settings,
  }: {
    routes: readonly RouteUnderTest[];
    problems: (coverage: FuzzCoverage) => readonly string[];
    requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;
    settings: { seed: number; numRuns: number };
  },
): Promise<FuzzCoverage> {
  const left = problems(coverage);
  const uncovered = routes.filter(({ method, url }) => left.some((problem) => problem.startsWith(`${method} ${url} `)));
  const merged = new Map([...coverage].map(([key, statuses]) => [key, new Map(statuses)]));
  for (const route of uncovered) {
    const more = await checkFuzzedAnswers(target, requestsOf(route), settings);
    for (const [key, statuses] of more) {
      const into = merged.get(key) ?? new Map<number, number>();
      for (const [status, times] of statuses) into.set(status, (into.get(status) ?? 0) + times);
      merged.set(key, into);
    }
  }
  return merged;
}

function changedKeys(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((key) => before[key] !== after[key]);
}

function reportWithSeed(details: fc.RunDetails<[FuzzRequest]>): void {
  if (!details.failed) return;
  throw new Error(
    `Fuzzing failed with FUZZ_SEED=${details.seed} (FUZZ_RUNS=${details.runConfiguration.numRuns ?? ''})\n${fc.defaultReportMessage(details) ?? ''}\n${String(details.errorInstance)}`,
  );
}

/**
 * Why a route cannot answer 2xx to a harness, and, where its handler still answers in its own way (a 303 of a
 * browser form, a 409 of a once-only action), the statuses that show it was reached.
 */
export interface NoSuccessReason {
  reason: string;
  instead?: readonly number[];
}

/**
 * A run that never got past validation proves little about the handlers. Every route in `routes` must have
 * answered a 2xx at least once, unless `listed` names it with the reason this harness cannot reach a success:
 * then one of its `instead` statuses is required, or nothing when it has none. A listed route without `instead`
 * that did succeed, or a listed name that is not a route, is a problem too, so the list stays true.
 * Returns the problems, one sentence each (none: the run reached every handler it could).
 */
export function successCoverageProblems(
  routes: readonly string[],
  coverage: FuzzCoverage,
  listed: Readonly<Record<string, NoSuccessReason>> = {},
): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const statuses = [...(coverage.get(route) ?? new Map<number, number>())];
    const answered = statuses.map(([status, times]) => `${status} x${times}`).join(', ') || 'never requested';
    const succeeded = statuses.some(([status]) => status >= 200 && status < 300);
    const exception = listed[route];
    if (exception === undefined) {
      if (!succeeded) problems.push(`${route} never answered 2xx (${answered})`);
    } else if (exception.instead === undefined) {
      if (succeeded) problems.push(`${route} answered 2xx but is listed as unable to: ${exception.reason}`);
    } else if (!succeeded && !statuses.some(([status]) => exception.instead?.includes(status))) {
      problems.push(`${route} answered neither 2xx nor ${exception.instead.join(' or ')} (${answered})`);
    }
  }
  for (const route of Object.keys(listed)) {
    if (!routes.includes(route))
      problems.push(`${route} is listed as unable to answer 2xx but is not a route under test`);
  }
  return problems;
}
