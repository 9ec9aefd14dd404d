/**
 * Lists are newest first, paged by a cursor: the (createdAt, id) of the last row of the page, so rows created
 * while a client pages never shift the pages it has not read yet. This file is the cursor itself, the query
 * parameters and the split of a page; the conditions a list query adds are in repository.ts.
 */
import { isUuid } from '@platform/db';
import { validationError } from '@platform/errors';
import { Type } from '@sinclair/typebox';

export const MAX_PAGE_SIZE = 100;

/** The `limit` and `cursor` query parameters of a list route, with the route's default page size. */
export function pageQueryProperties(defaultPageSize: number) {
  return {
    limit: Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: defaultPageSize,
      description: `Page size, 1-${MAX_PAGE_SIZE}.`,
    }),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The nextCursor of the previous page.' }),
    ),
  };
}

/** The `nextCursor` of a list response. */
export function nextCursorSchema() {
  return Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  });
}

/** Where a row stands in a list: its creation time to the microsecond (UTC, ISO 8601) and its id. */
export interface PagePosition {
  createdAt: string;
  id: string;
}

/**
 * Splits the `limit + 1` rows a list query fetched into the page and the cursor of the next page (null on the
 * last one): the extra row only says whether there is more.
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  positionOf: (row: Row) => PagePosition,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null };
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The cursor a page ends with: where its last row stands. */
export function encodeCursor({ createdAt, id }: PagePosition): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

/** Where the row a cursor names stands; a cursor this API did not return is a 400. */
export function decodeCursor(cursor: string): PagePosition {
  const [createdAt = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !CURSOR_TIME.test(createdAt) || !isUuid(id)) {
    const problem = 'is not a cursor this API returned';
    throw validationError(`querystring/cursor ${problem}`, [{ path: 'querystring/cursor', message: problem }]);
  }
  return { createdAt, id };
}
