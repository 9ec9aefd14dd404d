import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { type KenyanMobileOperator, OPERATOR_NAMES, operatorOf } from './kenyan-mobile-operators.js';

export type MpesaPhoneCheck =
  /** `254` + 9 digits, the form Daraja takes. */
  | { ok: true; msisdn: string }
  | { ok: false; problem: 'not_kenyan_mobile'; message: string }
  | { ok: false; problem: 'unsupported_operator'; operator: KenyanMobileOperator | undefined; message: string };

// Digits with the separators people write: spaces, dashes, dots, parentheses, and a leading +.
const WRITTEN_NUMBER = /^\+?[0-9(][0-9 ()./-]*$/;

/**
 * Reads a Kenyan mobile number in any common notation (07.., 01.., 7.., 2547.., +254 7..) and accepts it
 * only if it belongs to Safaricom, the operator of M-Pesa. Parsing and the mobile check are
 * libphonenumber's; the operator table is ours (kenyan-mobile-operators.ts).
 */
export function checkMpesaPhone(input: string): MpesaPhoneCheck {
  const written = input.trim();
  const parsed = WRITTEN_NUMBER.test(written) ? parsePhoneNumberFromString(written, 'KE') : undefined;
  const type = parsed?.isValid() ? parsed.getType() : undefined;
  if (parsed === undefined || parsed.country !== 'KE' || (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')) {
    return {
      ok: false,
      problem: 'not_kenyan_mobile',
      message: 'must be a Kenyan mobile number, e.g. 0712345678 or +254712345678',
    };
  }
  const national = parsed.nationalNumber;
  const operator = operatorOf(national);
  if (operator !== 'safaricom') {
    const whose = operator === undefined ? 'is not a Safaricom number' : `belongs to ${OPERATOR_NAMES[operator]}`;
    return {
      ok: false,
      problem: 'unsupported_operator',
      operator,
      message: `M-Pesa payments need a Safaricom number; this number ${whose}`,
    };
  }
  return { ok: true, msisdn: `254${national}` };
}
