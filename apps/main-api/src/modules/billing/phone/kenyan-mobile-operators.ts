/**
 * Kenyan mobile prefixes by the operator they were allocated to, as digits after the country code 254
 * (libphonenumber's carrier data is the reference). Numbers are portable, so a prefix names the operator
 * of allocation, which is what M-Pesa Express accepts. This is the only place the table lives.
 */
export const KENYAN_MOBILE_PREFIXES = {
  safaricom: [
    '70',
    '71',
    '72',
    '740',
    '741',
    '742',
    '743',
    '745',
    '746',
    '748',
    '749',
    '757',
    '758',
    '759',
    '768',
    '769',
    '79',
    '110',
    '111',
    '112',
    '113',
    '114',
    '115',
  ],
  airtel: [
    '73',
    '750',
    '751',
    '752',
    '753',
    '754',
    '755',
    '756',
    '761',
    '762',
    '78',
    '100',
    '101',
    '102',
    '103',
    '104',
    '105',
    '106',
    '107',
    '108',
  ],
  telkom: ['77'],
  equitel: ['763', '764', '765', '766'],
} as const satisfies Record<string, readonly string[]>;

export type KenyanMobileOperator = keyof typeof KENYAN_MOBILE_PREFIXES;

/** How operators are named to people. */
export const OPERATOR_NAMES: Record<KenyanMobileOperator, string> = {
  safaricom: 'Safaricom',
  airtel: 'Airtel',
  telkom: 'Telkom',
  equitel: 'Equitel',
};

/** The operator a 9-digit national number was allocated to, or undefined when it is none of the above. */
export function operatorOf(nationalNumber: string): KenyanMobileOperator | undefined {
  let best: { operator: KenyanMobileOperator; length: number } | undefined;
  for (const [operator, prefixes] of Object.entries(KENYAN_MOBILE_PREFIXES) as [
    KenyanMobileOperator,
    readonly string[],
  ][]) {
    for (const prefix of prefixes) {
      if (nationalNumber.startsWith(prefix) && prefix.length > (best?.length ?? 0)) {
        best = { operator, length: prefix.length };
      }
    }
  }
  return best?.operator;
}
