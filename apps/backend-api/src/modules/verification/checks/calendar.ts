// Calendar days as the checks read them: Nairobi's, written `YYYY-MM-DD` (docs/decisions.md#own-checks).

/** `YYYY-MM-DD` (the en-CA form) of the day in Nairobi. */
const nairobiDays = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' });

/** The calendar day in Nairobi at `now`, `YYYY-MM-DD`. */
export function nairobiDay(now: Date): string {
  return nairobiDays.format(now);
}

/**
 * Whole years from `dateOfBirth` to `today` (both `YYYY-MM-DD`): a birthday counts from its day, and one on 29
 * February counts from 1 March in a year without it.
 */
export function yearsBetween(dateOfBirth: string, today: string): number {
  const [birthYear, birthMonthDay] = [Number(dateOfBirth.slice(0, 4)), dateOfBirth.slice(5)];
  const [year, monthDay] = [Number(today.slice(0, 4)), today.slice(5)];
  // `MM-DD` strings order as the days do; 28 February is before 02-29, 1 March after it.
  return year - birthYear - (monthDay < birthMonthDay ? 1 : 0);
}
