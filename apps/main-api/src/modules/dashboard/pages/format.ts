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

export function formatMoment(locale: Locale, at: string | Date): string {
  return `${formats[locale].format(new Date(at))} EAT`;
}

/** Made once: `toLocaleString` with a locale builds a formatter on every call (50 a page on a list). */
const wholeNumbers = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 0 });

/** `12,500`: whole KES with thousands separators. */
export function formatWholeKes(amount: number): string {
  return wholeNumbers.format(amount);
}
