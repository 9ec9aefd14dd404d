import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { envelopeProblem } from './envelope.js';
import { type FuzzRequest, toInjectOptions } from './requests.js';

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

/**
 * Sends every generated request: none may answer 5xx, every error answer is the envelope (browser pages may be
 * HTML), and a refused request (4xx), or one `mustChangeNothing` names, leaves the stored state as it was.
 * A failure reports the seed, so the run can be repeated with FUZZ_SEED.
 */
export async function checkFuzzedAnswers(
  target: FuzzTarget,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  settings: { seed: number; numRuns: number },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      const before = await target.snapshot();
      const response = await target.inject(toInjectOptions(request));
      const what = `${request.route} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
      if (response.statusCode >= 500) throw new Error(`A server error: ${what}`);
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
