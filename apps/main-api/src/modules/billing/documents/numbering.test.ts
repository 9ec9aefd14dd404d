import type { DatabaseHandle } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { formatDocumentNumber } from './numbering.js';
import { takeNextNumber } from './repository.js';

describe('formatDocumentNumber', () => {
  it.each([
    [1, 'RCT-000001'],
    [42, 'RCT-000042'],
    [999_999, 'RCT-999999'],
    [1_000_000, 'RCT-1000000'],
  ])('writes %i as %s', (sequence, number) => {
    expect(formatDocumentNumber('RCT', sequence)).toBe(number);
  });

  it.each([0, -1, 1.5])('refuses %s', (sequence) => {
    expect(() => formatDocumentNumber('RCT', sequence)).toThrow(RangeError);
  });
});

class RolledBack extends Error {}

// The series itself, without payments: a number is taken inside a transaction and is given back when it rolls back,
// so the committed numbers have no gap even when transactions fail while others take numbers.
describe.skipIf(missing(postgresServer))('takeNextNumber (PostgreSQL only: concurrent transactions)', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase({ maxConnections: 12 });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Takes a number in a transaction that commits, or rolls back after taking it; the number it took. */
  async function take(series: string, rollBack: boolean): Promise<number | undefined> {
    let taken: number | undefined;
    try {
      await database.db.transaction(async (tx) => {
        taken = await takeNextNumber(tx, series);
        if (rollBack) throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
      return undefined;
    }
    return taken;
  }

  it('starts each series at 1 and gives the number of a rolled-back transaction to the next one', async () => {
    expect(await take('first', false)).toBe(1);
    expect(await take('first', true)).toBeUndefined();
    expect(await take('first', false)).toBe(2);
    expect(await take('second', false)).toBe(1);
  });

  it('leaves no gap and no duplicate among the committed numbers of 40 transactions at once, a third rolling back', async () => {
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, index) => take('racing', index % 3 === 0)));
    const committed = outcomes.filter((number): number is number => number !== undefined).sort((a, b) => a - b);
    expect(committed).toHaveLength(26);
    expect(committed).toEqual(Array.from({ length: 26 }, (_, index) => index + 1));
  });
});
