import { isAppError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { readListPeriod } from './list-period.js';

function problemOf(text: { from?: string; to?: string }): unknown {
  try {
    readListPeriod({ from: text.from, to: text.to });
  } catch (error) {
    if (isAppError(error)) return { status: error.statusCode, code: error.code, details: error.details };
    throw error;
  }
  throw new Error('The period was accepted');
}

describe('readListPeriod', () => {
  it('reads a day as that day in Nairobi, `to` including the whole of it', () => {
    expect(readListPeriod({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: new Date('2026-02-28T21:00:00Z'),
      to: new Date('2026-03-31T21:00:00Z'),
    });
    expect(readListPeriod({ from: '2026-03-01', to: '2026-03-01' }).to).toEqual(new Date('2026-03-01T21:00:00Z'));
  });

  it('reads a date-time with its time zone as that moment, `to` excluded', () => {
    expect(readListPeriod({ from: '2026-03-01T09:30:00Z', to: '2026-03-02T12:00:00.250+03:00' })).toEqual({
      from: new Date('2026-03-01T09:30:00Z'),
      to: new Date('2026-03-02T09:00:00.250Z'),
    });
    expect(readListPeriod({ from: '2026-03-01T09:30Z', to: undefined }).from).toEqual(new Date('2026-03-01T09:30:00Z'));
  });

  it('reads the first and last moments PostgreSQL can be asked about', () => {
    expect(readListPeriod({ from: '0001-01-01T00:00:00Z', to: '9999-12-31' })).toEqual({
      from: new Date('0001-01-01T00:00:00Z'),
      to: new Date('9999-12-31T21:00:00Z'),
    });
    expect(readListPeriod({ from: '0001-01-02', to: '9999-12-31T23:59:59.999Z' })).toEqual({
      from: new Date('0001-01-01T21:00:00Z'),
      to: new Date('9999-12-31T23:59:59.999Z'),
    });
  });

  it('leaves out what is not given', () => {
    expect(readListPeriod({ from: undefined, to: undefined })).toEqual({ from: undefined, to: undefined });
  });

  it.each([
    'yesterday',
    '2026-3-1',
    '2026-02-30',
    '2026-13-01',
    '2026-03-01T09:00:00',
    '2026-03-01T24:00:00Z',
    '2026-03-01T09:60:00Z',
    '2026-03-01 09:00:00Z',
    '1772355600',
    '',
    '0000-01-01',
    '0001-01-01',
    '0001-01-01T00:00:00+01:00',
    '0000-12-31T23:59:59Z',
    '9999-12-31T23:59:59-12:00',
    '10000-01-01',
    '+275760-09-13',
    '+275760-09-13T00:00:00Z',
    '-004713-01-01T00:00:00Z',
    '294276-12-31T23:59:59Z',
    '2016-12-31T23:59:60Z',
  ])('refuses %j with a 400 naming the parameter', (value) => {
    expect(problemOf({ from: value })).toEqual({
      status: 400,
      code: 'validation_error',
      details: [
        {
          path: 'querystring/from',
          message:
            'must be a date (2026-03-01) or a date-time with a time zone (2026-03-01T09:00:00Z) from 0001-01-02 to ' +
            '9999-12-31',
        },
      ],
    });
  });

  it('names both parameters when both are wrong, and refuses an empty period', () => {
    expect(problemOf({ from: 'x', to: 'y' })).toMatchObject({
      details: [{ path: 'querystring/from' }, { path: 'querystring/to' }],
    });
    for (const period of [
      { from: '2026-03-02', to: '2026-03-01' },
      { from: '2026-03-01T10:00:00Z', to: '2026-03-01T09:00:00Z' },
      { from: '2026-03-01T09:00:00Z', to: '2026-03-01T12:00:00+03:00' },
    ]) {
      expect(problemOf(period)).toEqual({
        status: 400,
        code: 'validation_error',
        details: [{ path: 'querystring/from', message: 'must be before to' }],
      });
    }
    // From the afternoon of a day to the end of it.
    expect(readListPeriod({ from: '2026-03-01T12:00:00Z', to: '2026-03-01' }).to).toEqual(
      new Date('2026-03-01T21:00:00Z'),
    );
  });
});
