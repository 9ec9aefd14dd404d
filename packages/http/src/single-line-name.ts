import { type StringOptions, type TString, Type } from '@sinclair/typebox';

// A name people see on one line (an organization, a company, a person, a folder, an app: docs/decisions.md#single-line-names)
// reaches the review console, invoices, receipts and email subjects. Control characters (Unicode Cc: C0, DEL, C1,
// line feeds and tabs among them), the line and paragraph separators and the bidirectional embeddings, overrides and
// isolates have no place in one: they break the line, or reorder what is shown around them ("Acme\u202Eorp" shows as
// "Acmeproc").
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const NOT_ON_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The JSON Schema format of single-line names, which `@platform/http`'s validator checks. */
export const SINGLE_LINE_NAME_FORMAT = 'single-line-name';

/** Whether `text` can be shown as a name on one line: none of the characters above. */
export function isSingleLineName(text: string): boolean {
  return !NOT_ON_ONE_LINE.test(text);
}

/**
 * The schema of a single-line name: text in the `single-line-name` format, so every such field of both services is
 * refused the same way, with the same message ("must be one line of text, without control characters, ...").
 */
export function singleLineName(options: StringOptions = {}): TString {
  return Type.String({ ...options, format: SINGLE_LINE_NAME_FORMAT });
}
