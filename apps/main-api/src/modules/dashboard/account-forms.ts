import { isAppError } from '@platform/errors';
import { type Locale, text } from '@platform/templates';

// What the Profile and Settings forms share (docs/decisions.md#dashboard-pages): reading a field of a form body, and a
// refusal of the service (its 400) turned into what the page says: the message, and each field's problem beside it.

/** A field of the posted form: its text, or undefined when it was not sent (or sent twice). */
export function fieldOf(body: Record<string, string | string[]>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** What a refused save says on the page: the whole message, and the problem of each field by its name. */
export interface FormRefusal {
  message: string;
  problems: Record<string, string>;
}

/**
 * The service's 400 as the form shows it, each field named by its label (`labels`, by field name); anything else is
 * thrown on.
 */
export function refusalOf(error: unknown, locale: Locale, labels: Record<string, string>): FormRefusal {
  if (!isAppError(error) || error.statusCode !== 400) throw error;
  const problems: Record<string, string> = {};
  for (const detail of error.details ?? []) {
    const field = detail.path.replace(/^\//, '');
    problems[field] ??= detail.message;
  }
  const named = Object.entries(problems).map(([field, problem]) =>
    text(locale, 'dashboard.form.fieldProblem', { field: labels[field] ?? field, problem }),
  );
  const problem = named.length === 0 ? error.message : named.join('; ');
  return { message: text(locale, 'dashboard.form.problem', { problem }), problems };
}
