import { formatKes } from '@platform/pricing';

// How billing documents write dates and amounts: in Nairobi's time, as a Kenyan business reads them.

const TIME_ZONE = 'Africa/Nairobi';

const day = new Intl.DateTimeFormat('en-KE', { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' });
const time = new Intl.DateTimeFormat('en-KE', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `2 March 2026`. */
export function formatDay(at: Date): string {
  return day.format(at);
}

/** `2 March 2026, 12:05 EAT`. */
export function formatDayAndTime(at: Date): string {
  return `${day.format(at)}, ${time.format(at)} EAT`;
}

/** `KES 4,500,900`. */
export const formatAmount = formatKes;
