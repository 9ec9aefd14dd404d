import type { verifyPersonEn } from './verify-person.en.js';

// The texts of the hosted page's questions about the person in Kiswahili (docs/decisions.md#hosted-page-languages),
// joined into the Kiswahili catalog (sw.ts).

export const verifyPersonSw = {
  'verify.capture.personLegend': 'Kuhusu wewe',
  'verify.capture.personHint': 'Andika majina yako kama yalivyo kwenye kitambulisho chako.',
  'verify.capture.firstName': 'Jina la kwanza',
  'verify.capture.middleName': 'Jina au majina ya kati (si lazima)',
  'verify.capture.lastName': 'Jina la mwisho (la ukoo)',
  'verify.capture.dateOfBirth': 'Tarehe ya kuzaliwa',
  'verify.capture.nationality': 'Uraia',
  'verify.capture.documentExpiry': 'Tarehe ya kuisha kwa kitambulisho (ikiwa inayo)',
  'verify.capture.documentExpiryHint':
    'Vitambulisho vya zamani vya Kenya havina tarehe ya kuisha: hapo acha sehemu hii wazi.',
  'verify.capture.mrz': 'Mistari inayosomwa na mashine (pasipoti pekee, si lazima)',
  'verify.capture.mrzHint':
    'Mistari miwili ya herufi, nambari na < iliyo chini ya ukurasa wenye picha, yenye herufi 44 kila mmoja. ' +
    'Iandike kama ilivyochapishwa, kila mstari peke yake.',
  'verify.error.required.firstName': 'Weka jina lako la kwanza.',
  'verify.error.invalid.firstName':
    'Weka jina lako la kwanza kama lilivyo kwenye kitambulisho: herufi, nafasi, vistari na apostrofi, zisizozidi 100.',
  'verify.error.invalid.middleName':
    'Weka majina yako ya kati kama yalivyo kwenye kitambulisho: herufi, nafasi, vistari na apostrofi, zisizozidi 100.',
  'verify.error.required.lastName': 'Weka jina lako la mwisho.',
  'verify.error.invalid.lastName':
    'Weka jina lako la mwisho kama lilivyo kwenye kitambulisho: herufi, nafasi, vistari na apostrofi, zisizozidi 100.',
  'verify.error.required.dateOfBirth': 'Weka tarehe yako ya kuzaliwa.',
  'verify.error.invalid.dateOfBirth':
    'Weka tarehe halisi ya kuzaliwa, kuanzia 1900 hadi leo (mwaka-mwezi-siku, kama 1990-05-31).',
  'verify.error.invalid.documentExpiry': 'Weka tarehe halisi (mwaka-mwezi-siku, kama 2030-05-31), au iache wazi.',
  'verify.error.invalid.nationality': 'Chagua uraia wako kwenye orodha.',
  'verify.error.invalid.mrz':
    'Hii si mistari miwili ya pasipoti inayosomwa na mashine, yenye herufi 44 kila mmoja (A-Z, 0-9 na <).',
  'verify.review.personLegend': 'Kuhusu wewe',
  'verify.review.middleName': 'Majina ya kati',
  'verify.review.documentExpiry': 'Tarehe ya kuisha',
  'verify.review.noExpiry': 'Haikutolewa',
  'verify.review.mrz': 'Mistari inayosomwa na mashine',
} as const satisfies Record<keyof typeof verifyPersonEn, string>;
