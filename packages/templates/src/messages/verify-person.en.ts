// The texts of the hosted page's questions about the person (docs/decisions.md#hosted-capture): names, date of birth,
// nationality, the document's expiry and a passport's machine-readable lines, in English, joined into the English
// catalog (en.ts); every one is in Kiswahili too (verify-person.sw.ts).

export const verifyPersonEn = {
  'verify.capture.personLegend': 'About you',
  'verify.capture.personHint': 'Write your names as they are on your ID document.',
  'verify.capture.firstName': 'First name',
  'verify.capture.middleName': 'Middle name or names (optional)',
  'verify.capture.lastName': 'Last name (surname)',
  'verify.capture.dateOfBirth': 'Date of birth',
  'verify.capture.nationality': 'Nationality',
  'verify.capture.documentExpiry': 'Expiry date of the ID document (if it has one)',
  'verify.capture.documentExpiryHint': 'Older Kenyan ID cards have no expiry date: then leave this empty.',
  'verify.capture.mrz': 'Machine-readable lines (passport only, optional)',
  'verify.capture.mrzHint':
    'The two lines of letters, numbers and < at the bottom of the photo page, 44 characters each. Type them as ' +
    'printed, each on its own line.',
  'verify.error.required.firstName': 'Enter your first name.',
  'verify.error.invalid.firstName':
    'Enter your first name as on your ID document: letters, spaces, hyphens and apostrophes, at most 100.',
  'verify.error.invalid.middleName':
    'Enter your middle names as on your ID document: letters, spaces, hyphens and apostrophes, at most 100.',
  'verify.error.required.lastName': 'Enter your last name.',
  'verify.error.invalid.lastName':
    'Enter your last name as on your ID document: letters, spaces, hyphens and apostrophes, at most 100.',
  'verify.error.required.dateOfBirth': 'Enter your date of birth.',
  'verify.error.invalid.dateOfBirth':
    'Enter a real date of birth, from 1900 to today (year-month-day, such as 1990-05-31).',
  'verify.error.invalid.documentExpiry': 'Enter a real date (year-month-day, such as 2030-05-31), or leave it empty.',
  'verify.error.invalid.nationality': 'Choose your nationality from the list.',
  'verify.error.invalid.mrz':
    "These are not the passport's two machine-readable lines of 44 characters each (A-Z, 0-9 and <).",
  'verify.review.personLegend': 'About you',
  'verify.review.middleName': 'Middle names',
  'verify.review.documentExpiry': 'Expiry date',
  'verify.review.noExpiry': 'None given',
  'verify.review.mrz': 'Machine-readable lines',
} as const;
