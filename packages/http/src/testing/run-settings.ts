/** Seed and run count of a fuzz suite: fixed by default, so a run is repeatable; FUZZ_SEED and FUZZ_RUNS override. */
export function fuzzRunSettings(
  defaults: { seed: number; numRuns: number },
  env: NodeJS.ProcessEnv = process.env,
): {
  seed: number;
  numRuns: number;
} {
  return { seed: integerOr(env['FUZZ_SEED'], defaults.seed), numRuns: integerOr(env['FUZZ_RUNS'], defaults.numRuns) };
}

function integerOr(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new Error(`Expected an integer, got ${JSON.stringify(value)}`);
  return parsed;
}
