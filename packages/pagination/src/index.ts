// Cursor paging shared by both services' lists (docs/decisions.md#folder-list): the cursor, the query parameters
// and the split of a page (cursor.ts), and the SQL a list query adds (repository.ts).

export {
  decodeCursor,
  encodeCursor,
  MAX_PAGE_SIZE,
  nextCursorSchema,
  type PagePosition,
  pageOf,
  pageQueryProperties,
} from './cursor.js';
export { afterPosition, cursorTimeOf } from './repository.js';
