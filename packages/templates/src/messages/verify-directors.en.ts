// The texts of the hosted page's directors section (docs/decisions.md#directors) in English, joined into the English
// catalog (en.ts); every one is in Kiswahili too (verify-directors.sw.ts).

export const verifyDirectorsEn = {
  'verify.directors.heading': 'Your directors verify themselves',
  'verify.directors.intro':
    'The business registry names these directors. Each verifies with their own ID and a selfie: send each of them ' +
    'their link. The business is decided once all of them have.',
  'verify.directors.unnamed': 'Director {number}',
  'verify.directors.linkLabel': 'Verification link for {name}',
  'verify.directors.sendEmail': 'Send by email',
  'verify.directors.sendSms': 'Send by SMS',
  'verify.directors.sendTo': 'to {name}',
  'verify.directors.emailSubject': 'Verify yourself as a director of {company}',
  'verify.directors.message':
    '{company} is being verified, and the business registry names you as a director. Verify yourself with your ID ' +
    'and a selfie here: {url}',
  'verify.directors.companyFallback': 'your company',
  'verify.directors.reload':
    'While a director is still to verify, this page does not reload itself: reload it to see their progress.',
} as const;
