import { isAppError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, MAX_PAGE_SIZE, pageOf, pageQueryProperties } from './cursor.js';

const position = { createdAt: '2026-03-02T09:00:00.123456Z', id: '8a1e2f44-5b6c-4d7e-9f80-112233445566' };
const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('cursors', () => {
  it('decode to the position they were made from', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it("take the ids of the list's own shape when it names one", () => {
    const isEventId = (id: string) => /^msg_[0-9A-Za-z]{27}$/.test(id);
    const event = { createdAt: position.createdAt, id: 'msg_00UFlcovAys1ExXuJCGgmTSurEx' };
    expect(decodeCursor(encodeCursor(event), isEventId)).toEqual(event);
    expect(() => decodeCursor(encodeCursor(event))).toThrow('cursor is not a cursor this API returned');
    expect(() => decodeCursor(encodeCursor(position), isEventId)).toThrow('cursor is not a cursor this API returned');
  });

  it('decode the first and last times that can be stored', () => {
    for (const createdAt of ['0001-01-01T00:00:00.000000Z', '9999-12-31T23:59:59.999999Z']) {
      expect(decodeCursor(encodeCursor({ createdAt, id: position.id })).createdAt).toBe(createdAt);
    }
  });

  it.each([
    ['not base64 of a position', 'bm90LWEtY3Vyc29y'],
    ['a time of millisecond precision', cursorOf(`2026-03-02T09:00:00.123Z|${position.id}`)],
    ['an id that is not a UUID', cursorOf(`${position.createdAt}|42`)],
    ['a third part', cursorOf(`${position.createdAt}|${position.id}|more`)],
    ['no id', cursorOf(position.createdAt)],
    ['a time of year 0, which PostgreSQL refuses', cursorOf(`0000-01-01T00:00:00.000000Z|${position.id}`)],
    ['a day and time that do not exist', cursorOf(`2026-13-45T99:99:99.000000Z|${position.id}`)],
    ['30 February', cursorOf(`2026-02-30T09:00:00.000000Z|${position.id}`)],
  ])('refuse %s with a 400 on querystring/cursor', (_label, cursor) => {
    let caught: unknown;
    try {
      decodeCursor(cursor);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught)).toBe(true);
    expect(caught).toMatchObject({
      statusCode: 400,
      code: 'validation_error',
      message: 'cursor is not a cursor this API returned',
      details: [{ path: 'querystring/cursor', message: 'is not a cursor this API returned' }],
    });
  });
});

describe('pageOf', () => {
  const rows = [
    { id: 'c', at: '2026-03-02T09:00:00.000003Z' },
    { id: 'b', at: '2026-03-02T09:00:00.000002Z' },
    { id: 'a', at: '2026-03-02T09:00:00.000001Z' },
  ];
  const positionOf = (row: { id: string; at: string }) => ({ createdAt: row.at, id: row.id });

  it('keeps `limit` rows and points the next cursor at the last of them when a row is left over', () => {
    const { page, nextCursor } = pageOf(rows, 2, positionOf);
    expect(page.map((row) => row.id)).toEqual(['c', 'b']);
    expect(nextCursor).toBe(encodeCursor({ createdAt: '2026-03-02T09:00:00.000002Z', id: 'b' }));
  });

  it.each([3, 4])('gives no next cursor when no row is left over (limit %i)', (limit) => {
    const { page, nextCursor } = pageOf(rows, limit, positionOf);
    expect(page).toEqual(rows);
    expect(nextCursor).toBeNull();
  });

  it('gives an empty last page for no rows', () => {
    expect(pageOf([], 10, positionOf)).toEqual({ page: [], nextCursor: null });
  });
});

describe('pageQueryProperties', () => {
  it('takes the route default page size, up to the shared maximum', () => {
    const { limit, cursor } = pageQueryProperties(20);
    expect(limit).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 });
    expect(pageQueryProperties(50).limit.default).toBe(50);
    expect(cursor).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
  });
});
