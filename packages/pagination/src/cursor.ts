/**
 * Lists are newest first, paged by a cursor: the (createdAt, id) of the last row of the page, so rows created
 * while a client pages never shift the pages it has not read yet. This file is the cursor itself, the query
 * parameters and the split of a page; the conditions a list query adds are in repository.ts.
 */
import { isUuid } from '@platform/db';
import { invalidFields } from '@platform/errors';
import { nullable } from '@platform/http/serializable-schemas';
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
  return nullable(Type.String(), { description: 'Pass as `cursor` for the next page; null on the last page.' });
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

/**
 * Whether a cursor's time is one PostgreSQL takes (docs/decisions.md#dates-are-storable): a real day and time of the
 * years 0001-9999, as only a page's last row gives. A forged `0000-...` or `2026-13-45T99:...` is refused, not sent.
 */
function isRealCursorTime(createdAt: string): boolean {
  if (!CURSOR_TIME.test(createdAt) || createdAt.startsWith('0000')) return false;
  const at = new Date(createdAt);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 19) === createdAt.slice(0, 19);
}

/** The cursor a page ends with: where its last row stands. */
export function encodeCursor({ createdAt, id }: PagePosition): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

/**
 * Where the row a cursor names stands; a cursor this API did not return is a 400. `isId` says what the list's ids
 * look like: UUIDs unless the list says otherwise (webhook events are `msg_...`).
 */
export function decodeCursor(cursor: string, isId: (id: string) => boolean = isUuid): PagePosition {
  const [createdAt = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !isRealCursorTime(createdAt) || !isId(id)) {
    throw invalidFields([{ path: 'querystring/cursor', message: 'is not a cursor this API returned' }]);
  }
  return { createdAt, id };
}
