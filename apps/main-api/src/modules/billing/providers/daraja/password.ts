// Daraja authenticates each STK request with a Password derived from the shortcode, the passkey and a
// Timestamp in Kenyan time.

const nairobiClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Africa/Nairobi',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYYMMDDHHmmss` of `at` in Africa/Nairobi time. */
export function darajaTimestamp(at: Date): string {
  const parts = Object.fromEntries(nairobiClock.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts['year']}${parts['month']}${parts['day']}${parts['hour']}${parts['minute']}${parts['second']}`;
}

/** base64(Shortcode + Passkey + Timestamp). */
export function darajaPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');
}
