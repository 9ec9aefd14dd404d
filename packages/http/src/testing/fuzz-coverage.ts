import fc from 'fast-check';
import {
  checkFuzzedAnswers,
  coverageToppedUp,
  edgeProbeCoverageProblems,
  type FuzzCoverage,
  type FuzzTarget,
  type NoSuccessReason,
  probeCoverageKey,
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
  const topUp = { seed: settings.seed, numRuns: TOP_UP_RUNS };
  const shared = await checkFuzzedAnswers(target, requests, settings);
  const perRoute = await coverageToppedUp(target, shared, { routes, problems, requestsOf, settings: topUp });
  // A kind of edge probe never refused may only have been sent rarely, or to routes that refuse it earlier (another
  // organization's 404): the routes that can be sent it get requests of their own too.
  const unrefused = probes.filter((probe) => edgeProbeCoverageProblems(perRoute, [probe]).length > 0);
  if (unrefused.length === 0) return problems(perRoute);
  const probed = routes.filter((route) => unrefused.some((probe) => canBeProbedWith(route, probe, perRoute)));
  const named = () => probed.map(({ method, url }) => `${method} ${url} (edge probes)`);
  return problems(
    await coverageToppedUp(target, perRoute, { routes: probed, problems: named, requestsOf, settings: topUp }),
  );
}

/** A route that was sent `probe` in the run, or, for two idempotency keys, any idempotent route. */
function canBeProbedWith(route: RouteUnderTest, probe: FuzzProbe, coverage: FuzzCoverage): boolean {
  const name = `${route.method} ${route.url}`;
  if (coverage.has(probeCoverageKey(name, probe))) return true;
  const idempotency = route.config['idempotency'];
  return probe === 'two-idempotency-keys' && (idempotency === 'transaction' || idempotency === 'response');
}
