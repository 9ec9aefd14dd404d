import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KENYAN_MOBILE_PREFIXES } from './kenyan-mobile-operators.js';
import { checkMpesaPhone } from './mpesa-phone.js';

/** A 9-digit national number starting with `prefix`, the rest filled from `digits`. */
function nationalNumber(prefix: string, digits: string): string {
  return (prefix + digits).slice(0, 9);
}

/** Every notation a Kenyan customer might type for the same number. */
function notations(national: string): string[] {
  const [a, b, c] = [national.slice(0, 3), national.slice(3, 6), national.slice(6)];
  return [
    `0${national}`,
    `0${a} ${b} ${c}`,
    `0${a}-${b}-${c}`,
    `254${national}`,
    `+254${national}`,
    `+254 ${a} ${b} ${c}`,
    `+254-${a}-${b}-${c}`,
    ` (0${a}) ${b}${c} `,
    national,
  ];
}

const subscriberDigits = fc.stringMatching(/^[0-9]{7}$/);

describe('checkMpesaPhone', () => {
  it.each(KENYAN_MOBILE_PREFIXES.safaricom)('accepts the Safaricom range %s in every notation', (prefix) => {
    fc.assert(
      fc.property(subscriberDigits, (digits) => {
        const national = nationalNumber(prefix, digits);
        for (const written of notations(national)) {
          expect(checkMpesaPhone(written), written).toEqual({ ok: true, msisdn: `254${national}` });
        }
      }),
      { numRuns: 20 },
    );
  });

  it.each([
    ...KENYAN_MOBILE_PREFIXES.airtel.map((prefix) => ['Airtel', prefix] as const),
    ...KENYAN_MOBILE_PREFIXES.telkom.map((prefix) => ['Telkom', prefix] as const),
    ...KENYAN_MOBILE_PREFIXES.equitel.map((prefix) => ['Equitel', prefix] as const),
  ])('refuses the %s range %s as another operator', (operatorName, prefix) => {
    fc.assert(
      fc.property(subscriberDigits, (digits) => {
        for (const written of notations(nationalNumber(prefix, digits))) {
          const check = checkMpesaPhone(written);
          expect(check.ok, written).toBe(false);
          if (check.ok) return;
          expect(check.problem).toBe('unsupported_operator');
          expect(check.message).toContain(operatorName);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('refuses Kenyan mobile numbers of operators outside the table as unsupported', () => {
    for (const written of ['0747123456', '0767123456', '0760123456', '0744123456']) {
      expect(checkMpesaPhone(written)).toMatchObject({
        ok: false,
        problem: 'unsupported_operator',
        operator: undefined,
      });
    }
  });

  it.each([
    ['a Nairobi landline', '020 2345678'],
    ['a Tanzanian mobile', '+255 712 345 678'],
    ['a number one digit short', '071234567'],
    ['a number one digit long', '07123456789'],
    ['letters', '07I2345678'],
    ['letters after a number', '0712345678 ext'],
    ['an empty string', ''],
    ['spaces only', '   '],
    ['a double plus', '++254712345678'],
  ])('refuses %s as not a Kenyan mobile number', (_, written) => {
    expect(checkMpesaPhone(written)).toMatchObject({ ok: false, problem: 'not_kenyan_mobile' });
  });
});
