import type { AppError } from '@platform/errors';
import { type Locale, text } from '@platform/templates';
import { PERIOD_NOT_FORWARD } from '../../shared/list-period.js';

// What a list page says when the list's service refuses its query (a period backwards, a date it cannot read, a page
// link it did not give): the service's message is the API's, in English, so the page says it from the catalogs in
// its own language, by which parameter the refusal names.

const lastSegment = (path: string) => path.split('/').at(-1) ?? '';

/** The page's words for a list's 400; the service's own message when it names no parameter the pages know. */
export function listProblemOf(locale: Locale, error: AppError): string {
  const details = error.details ?? [];
  const names = new Set(details.map(({ path }) => lastSegment(path)));
  if (names.has('cursor')) return text(locale, 'dashboard.list.problem.cursor');
  if (details.some(({ message }) => message === PERIOD_NOT_FORWARD)) {
    return text(locale, 'dashboard.list.problem.period');
  }
  if (names.has('from') || names.has('to')) return text(locale, 'dashboard.list.problem.date');
  return error.message;
}
