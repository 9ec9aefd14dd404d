import { tableChecksums } from '@platform/db/testing';
import { envelopeProblem, type FuzzRequest, toInjectOptions } from '@platform/http/testing';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { isBrowserPage, isForgedCallback } from './route-kinds.js';

/**
 * Sends every generated request: none may answer 5xx, every error answer is the envelope (a browser page's may be
 * HTML), and a refused request (4xx) or a forged provider callback leaves every table of the database as it was.
 */
export async function checkAnswers(target: TestApp, arbitrary: fc.Arbitrary<FuzzRequest>, settings: { seed: number; numRuns: number }): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      const before = await tableChecksums(target.db);
      const response = await target.app.inject(toInjectOptions(request));
      const what = `${request.route} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
      expect(response.statusCode, what).toBeLessThan(500);
      if (response.statusCode >= 400 && !isBrowserPage(request, response.headers['content-type'])) {
        expect(envelopeProblem(response.body), what).toBeUndefined();
      }
      if (response.statusCode >= 400 || isForgedCallback(request)) {
        expect(changedTables(before, await tableChecksums(target.db)), what).toEqual([]);
      }
    }),
    { seed: settings.seed, numRuns: settings.numRuns, endOnFailure: true, reporter: reportWithSeed },
  );
}

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
}

/** fast-check's report, led by the seed so the run can be repeated with FUZZ_SEED. */
function reportWithSeed(details: fc.RunDetails<[FuzzRequest]>): void {
  if (!details.failed) return;
  throw new Error(
    `Fuzzing failed with FUZZ_SEED=${details.seed} (FUZZ_RUNS=${details.runConfiguration.numRuns ?? ''})\n${fc.defaultReportMessage(details) ?? ''}\n${String(details.errorInstance)}`,
  );
}
