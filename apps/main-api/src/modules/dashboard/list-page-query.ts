import { type TProperties, Type } from '@sinclair/typebox';

// The query string of the dashboard's list pages (docs/decisions.md#dashboard-pages): each page's own filters, then
// what every list takes: the cursor of the page shown and the frame's choices (language, organization, environment).
// All text, loose: a page reads its filters itself and says on the page what it cannot read; nothing else is taken.

/** An optional text field of a page's query, at most `maxLength` characters. */
export const queryText = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** What every list page's query takes besides its filters. */
const listPageFields = {
  /** The page after the one shown, as the list's service gave it. */
  cursor: queryText(512),
  lang: queryText(8),
  org: queryText(64),
  env: queryText(8),
};

/** A list page's query schema: its own fields (filters, a notice), then the cursor and the frame's choices. */
export function listPageQuery<Fields extends TProperties>(fields: Fields) {
  return Type.Object({ ...fields, ...listPageFields }, { additionalProperties: false });
}

/** A filter as the page reads it: trimmed, undefined when missing or blank. */
export const given = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();
