import { describe, expect, it } from 'vitest';
import { formatMoment, formatWholeKes } from './format.js';

const formatters = Object.fromEntries(
  ['en-KE', 'sw-KE'].map((locale) => [
    locale,
    new Intl.DateTimeFormat(locale, {
      timeZone: 'Africa/Nairobi',
      dateStyle: 'medium',
      timeStyle: 'short',
      hourCycle: 'h23',
    }),
  ]),
);
const intl = (locale: 'en-KE' | 'sw-KE', at: Date) => `${formatters[locale]?.format(at)} EAT`;

describe('formatMoment', () => {
  it('writes a moment as the formatter does, in both languages', () => {
    expect(formatMoment('en', '2026-12-03T06:15:42.123Z')).toBe('3 Dec 2026, 09:15 EAT');
    expect(formatMoment('sw', new Date('2026-12-03T06:15:42.123Z'))).toBe('3 Des 2026, 09:15 EAT');
  });

  it('agrees with the formatter at every hour and at the edges of Nairobi days, old offsets included', () => {
    const moments: number[] = [];
    // Every 7 minutes over two days, the minutes around midnight, and one moment a month since 1900.
    for (let at = Date.UTC(2026, 11, 2, 20); at < Date.UTC(2026, 11, 4, 22); at += 7 * 60_000) moments.push(at);
    for (const edge of [Date.UTC(2026, 11, 2, 21), Date.UTC(2027, 0, 1, 21)]) {
      for (let ms = -120_000; ms <= 120_000; ms += 999) moments.push(edge + ms);
    }
    for (let year = 1900; year < 2100; year++) {
      for (let month = 0; month < 12; month++)
        moments.push(Date.UTC(year, month, 1 + (year % 27), (year + month) % 24, 37));
    }
    for (const at of moments) {
      const date = new Date(at);
      expect(formatMoment('en', date.toISOString()), date.toISOString()).toBe(intl('en-KE', date));
      expect(formatMoment('sw', date), date.toISOString()).toBe(intl('sw-KE', date));
    }
  });

  it('refuses an invalid time as the formatter does', () => {
    expect(() => formatMoment('en', 'not a time')).toThrow(RangeError);
  });
});

describe('formatWholeKes', () => {
  it('writes an amount as the formatter does', () => {
    const wholeNumbers = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 0 });
    const amounts = [0, -0, 1, 9, 10, 99, 100, 999, 1000, 12_500, 99_999, 100_000, 1_234_567, -1000, 2.5, -0.4, 1e21];
    for (let amount = 1; amount < Number.MAX_SAFE_INTEGER / 7; amount = amount * 7 + 3) amounts.push(amount);
    amounts.push(Number.MAX_SAFE_INTEGER);
    for (const amount of amounts) expect(formatWholeKes(amount), String(amount)).toBe(wholeNumbers.format(amount));
  });
});
