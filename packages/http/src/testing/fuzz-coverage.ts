import fc from 'fast-check';
import {
  checkFuzzedAnswers,
  coverageToppedUp,
  edgeProbeCoverageProblems,
  type FuzzCoverage,
  type FuzzTarget,
  type NoSuccessReason,
  successCoverageProblems,
  unstorableTextCoverageProblems,
} from './check-answers.js';
import type { FuzzProbe, FuzzRequest } from './fuzz-request.js';
import type { RouteUnderTest } from './routes.js';

/** Requests of its own for a route a run left uncovered: enough for a third of them, the clean ones, to get through. */
const TOP_UP_RUNS = 200;

/**
 * A fuzz run that judges coverage: sends `requests` (by default each route's own, each route equally likely) as
 * `checkFuzzedAnswers` does, gives each of `routes` the run left uncovered `TOP_UP_RUNS` requests of its own
 * (`requestsOf`, see `coverageToppedUp`), then returns what is still uncovered (`successCoverageProblems` with
 * `listed`, and `unstorableTextCoverageProblems`), one sentence each. Which requests reach a handler in a shared run
 * is the seed's luck; what a route's own requests cannot reach is not.
 */
export async function fuzzedCoverageProblems(
  target: FuzzTarget,
  {
    routes,
    requestsOf,
    requests = fc.oneof(...routes.map(requestsOf)),
    listed = {},
    probes = [],
  }: {
    routes: readonly RouteUnderTest[];
    /** A route's own requests: its share of `requests`. */
    requestsOf: (route: RouteUnderTest) => fc.Arbitrary<FuzzRequest>;
    requests?: fc.Arbitrary<FuzzRequest>;
    /** The routes that cannot answer 2xx to this run, as `successCoverageProblems` takes them. */
    listed?: Readonly<Record<string, NoSuccessReason>>;
    /** The kinds of edge probe the run must have sent, and seen refused (edgeProbeCoverageProblems). */
    probes?: readonly FuzzProbe[];
  },
  settings: { seed: number; numRuns: number },
): Promise<string[]> {
  const names = routes.map(({ method, url }) => `${method} ${url}`);
  const problems = (coverage: FuzzCoverage) => [
    ...successCoverageProblems(names, coverage, listed),
    ...unstorableTextCoverageProblems(routes, coverage),
    ...edgeProbeCoverageProblems(coverage, probes),
  ];
  const shared = await checkFuzzedAnswers(target, requests, settings);
  return problems(
    await coverageToppedUp(target, shared, {
      routes,
      problems,
      requestsOf,
      settings: { seed: settings.seed, numRuns: TOP_UP_RUNS },
    }),
  );
}
