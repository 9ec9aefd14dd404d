import { yearsBetween } from './calendar.js';
import type { CheckResult } from './check-results.js';

// The age check (docs/decisions.md#own-checks): the person's age on the day of the submission, from the date of
// birth they typed or, once Smile ID answers, the registry's, against the policy's minimum. Under age is a refusal.

/** Where the date of birth came from: typed by the person, or the registry's record (which replaces it). */
type BirthDateSource = 'typed' | 'registry';

export function ageCheck(
  dateOfBirth: string | undefined,
  { minimumAge, today, from }: { minimumAge: number; today: string; from: BirthDateSource },
): CheckResult {
  const base = { kind: 'age', source: 'service', details: { minimumAge, from } } as const;
  if (dateOfBirth === undefined) {
    return { ...base, outcome: 'not_applicable', summary: 'No date of birth was stated, so the age was not checked.' };
  }
  if (yearsBetween(dateOfBirth, today) >= minimumAge) {
    return { ...base, outcome: 'passed', summary: `The person is at least ${minimumAge} years old.` };
  }
  const whose = from === 'registry' ? 'The registry’s date of birth' : 'The date of birth';
  return {
    ...base,
    outcome: 'failed',
    code: 'under_age',
    summary: `${whose} makes the person younger than ${minimumAge}.`,
    consequence: { decision: 'rejected', reason: `The person is younger than ${minimumAge}, the minimum age` },
  };
}

/** The date of birth a registry record shows among `results` (the id_registry check's evidence), `YYYY-MM-DD`. */
export function registryBirthDate(results: readonly CheckResult[]): string | undefined {
  const registry = results.filter((result) => result.kind === 'id_registry').at(-1);
  const date = registry?.evidence?.dateOfBirth;
  return typeof date === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date) ? date : undefined;
}
