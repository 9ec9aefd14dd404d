import type { verifyDirectorsEn } from './verify-directors.en.js';

// The texts of the hosted page's directors section in Kiswahili, joined into the Kiswahili catalog (sw.ts): every
// key of verify-directors.en.ts.

export const verifyDirectorsSw = {
  'verify.directors.heading': 'Wakurugenzi wako wanajithibitisha',
  'verify.directors.intro':
    'Sajili ya biashara inawataja wakurugenzi hawa. Kila mmoja anajithibitisha kwa kitambulisho chake na picha ya ' +
    'uso (selfie): mtumie kila mmoja kiungo chake. Uamuzi wa biashara unafanywa wote wakishajithibitisha.',
  'verify.directors.unnamed': 'Mkurugenzi {number}',
  'verify.directors.linkLabel': 'Kiungo cha uthibitishaji cha {name}',
  'verify.directors.sendEmail': 'Tuma kwa barua pepe',
  'verify.directors.sendSms': 'Tuma kwa SMS',
  'verify.directors.sendTo': 'kwa {name}',
  'verify.directors.emailSubject': 'Jithibitishe kama mkurugenzi wa {company}',
  'verify.directors.message':
    '{company} inathibitishwa, na sajili ya biashara inakutaja kama mkurugenzi. Jithibitishe kwa kitambulisho chako ' +
    'na picha ya uso hapa: {url}',
  'verify.directors.companyFallback': 'kampuni yako',
  'verify.directors.reload':
    'Mkurugenzi akiwa bado hajajithibitisha, ukurasa huu haujisasishi wenyewe: uusasishe ili kuona maendeleo yao.',
} as const satisfies Record<keyof typeof verifyDirectorsEn, string>;
