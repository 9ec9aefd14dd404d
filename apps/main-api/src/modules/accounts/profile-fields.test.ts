import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normaliseDateOfBirth,
  normaliseName,
  normalisePhone,
  normaliseProfileChanges,
  pickWritableFields,
} from './profile-fields.js';

const TODAY = '2024-06-15';

describe('normaliseDateOfBirth', () => {
  it.each([
    ['1992-04-18', '1992-04-18'],
    ['2000-02-29', '2000-02-29'],
    ['1900-01-01', '1900-01-01'],
    [TODAY, TODAY],
    ['1992-04-18T00:00:00.000Z', '1992-04-18'],
    ['1992-04-18T23:30:00+03:00', '1992-04-18'],
  ])('accepts %s as %s', (input, stored) => {
    expect(normaliseDateOfBirth(input, TODAY)).toBe(stored);
  });

  it.each([
    '2023-02-30',
    '1900-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-06-16',
    '1899-12-31',
    '18-04-1992',
    '03/04/1990',
    'April 18, 1992',
    '1992-04-18T99:00',
    '',
    '1992-4-18',
  ])('refuses %j', (input) => {
    expect(normaliseDateOfBirth(input, TODAY)).toEqual({ problem: expect.any(String) });
  });

  it('accepts exactly the real calendar dates in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2024 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const input = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
          const expected = d <= daysInMonth && input <= TODAY;
          expect(normaliseDateOfBirth(input, TODAY) === input).toBe(expected);
        },
      ),
    );
  });
});

describe('normalisePhone', () => {
  it.each([
    ['0712345678', '+254712345678'],
    ['+254 712 345 678', '+254712345678'],
    ['254712345678', '+254712345678'],
    ['0110 123 456', '+254110123456'],
    ['+1 202 555 0143', '+12025550143'],
  ])('stores %s as %s', (input, e164) => {
    expect(normalisePhone(input)).toBe(e164);
  });

  it.each(['12345', '071234567', 'phone', '', '+', '0'.repeat(41)])('refuses %j', (input) => {
    expect(normalisePhone(input)).toEqual({ problem: expect.any(String) });
  });
});

describe('normaliseName', () => {
  it('trims and counts characters, not UTF-16 units', () => {
    expect(normaliseName('  Njeri  ')).toBe('Njeri');
    expect(normaliseName('😀'.repeat(100))).toBe('😀'.repeat(100));
    expect(normaliseName('😀'.repeat(101))).toEqual({ problem: expect.any(String) });
    expect(normaliseName(' \t ')).toEqual({ problem: expect.any(String) });
  });
});

describe('pickWritableFields and normaliseProfileChanges', () => {
  it('keeps only writable string fields', () => {
    expect(
      pickWritableFields({ firstName: 'A', email: 'x', kycStatus: 'verified', other: 1 } as Record<string, unknown>),
    ).toEqual({
      firstName: 'A',
    });
  });

  it('reports every failed field', () => {
    expect(normaliseProfileChanges({ firstName: '', phone: 'x', dob: '2023-02-30', lastName: 'Ok' }, TODAY)).toEqual({
      ok: false,
      details: [
        { path: '/firstName', message: expect.any(String) },
        { path: '/phone', message: expect.any(String) },
        { path: '/dob', message: '2023-02-30 is not a calendar date' },
      ],
    });
  });
});
