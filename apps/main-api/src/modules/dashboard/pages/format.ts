import type { Locale } from '@platform/templates';

// How dashboard pages write moments: in Nairobi's time, in the page's language (`3 Des 2026, 09:15 EAT`).

const formats: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-KE', {
    timeZone: 'Africa/Nairobi',
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }),
  sw: new Intl.DateTimeFormat('sw-KE', {
    timeZone: 'Africa/Nairobi',
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }),
};

// A list writes 50 moments a page, most of them on a few days, and `format` costs about 2 µs each
// (docs/benchmarks.md#the-verifications-page-get-dashboardverifications-3-dec). So the formatter writes each Nairobi
// day once, and the hour and minute are added to it, Nairobi being UTC+3. A day is taken this way only when the
// formatter writes its first and last minute exactly so (no change of offset in or around it); any other day, or an
// invalid time, is left to the formatter.
const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
/** Days remembered per language before starting over: a bound, far above what pages ask for. */
const DAYS_KEPT = 4096;

interface DayText {
  /** Before the hour (`3 Dec 2026, `), between hour and minute (`:`), after the minute. */
  beforeHour: string;
  betweenHourAndMinute: string;
  afterMinute: string;
}

const days: Record<Locale, Map<number, DayText | null>> = { en: new Map(), sw: new Map() };

const twoDigits = (value: number) => (value < 10 ? `0${value}` : `${value}`);

function dayTextOf(locale: Locale, day: number): DayText | null {
  const known = days[locale];
  let text = known.get(day);
  if (text === undefined) {
    const first = new Date(day * DAY_MS - NAIROBI_OFFSET_MS);
    const parts = formats[locale].formatToParts(first);
    const hour = parts.findIndex((part) => part.type === 'hour');
    const minute = parts.findIndex((part) => part.type === 'minute');
    const join = (from: number, to: number) =>
      parts
        .slice(from, to)
        .map((part) => part.value)
        .join('');
    const candidate =
      hour >= 0 && minute > hour
        ? {
            beforeHour: join(0, hour),
            betweenHourAndMinute: join(hour + 1, minute),
            afterMinute: join(minute + 1, parts.length),
          }
        : null;
    const writes = (dayText: DayText, at: Date, hh: string, mm: string) =>
      formats[locale].format(at) ===
      `${dayText.beforeHour}${hh}${dayText.betweenHourAndMinute}${mm}${dayText.afterMinute}`;
    const last = new Date(first.getTime() + DAY_MS - MINUTE_MS);
    text =
      candidate !== null && writes(candidate, first, '00', '00') && writes(candidate, last, '23', '59')
        ? candidate
        : null;
    if (known.size >= DAYS_KEPT) known.clear();
    known.set(day, text);
  }
  return text;
}

export function formatMoment(locale: Locale, at: string | Date): string {
  const moment = new Date(at);
  const local = moment.getTime() + NAIROBI_OFFSET_MS;
  const dayText = Number.isFinite(local) ? dayTextOf(locale, Math.floor(local / DAY_MS)) : null;
  if (dayText === null) return `${formats[locale].format(moment)} EAT`;
  const minuteOfDay = Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / MINUTE_MS);
  const hh = twoDigits(Math.floor(minuteOfDay / 60));
  const mm = twoDigits(minuteOfDay % 60);
  return `${dayText.beforeHour}${hh}${dayText.betweenHourAndMinute}${mm}${dayText.afterMinute} EAT`;
}

/** Made once: `toLocaleString` with a locale builds a formatter on every call (50 a page on a list). */
const wholeNumbers = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 0 });

/** `12,500`: whole KES with thousands separators. */
export function formatWholeKes(amount: number): string {
  // A whole, non-negative amount (every price of a list) is grouped here: the formatter costs a microsecond a call.
  if (!Number.isSafeInteger(amount) || amount < 0 || Object.is(amount, -0)) return wholeNumbers.format(amount);
  const digits = String(amount);
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return grouped;
}
