import { describe, expect, it } from 'vitest';
import { ageCheck, registryBirthDate } from './age-check.js';
import { yearsBetween } from './calendar.js';
import { documentExpiryCheck } from './document-expiry-check.js';
import { mrzCheck } from './mrz-check.js';

// This service's own checks, made alone at every kyc submission (docs/decisions.md#own-checks).

/** ICAO 9303's check digit: the weights 7, 3, 1 over the characters' values (digits, A=10.., < = 0), mod 10. */
function checkDigit(text: string): string {
  const value = (char: string) => (char === '<' ? 0 : /[0-9]/.test(char) ? Number(char) : char.charCodeAt(0) - 55);
  const weights = [7, 3, 1];
  const sum = [...text].reduce((total, char, index) => total + value(char) * (weights[index % 3] ?? 0), 0);
  return String(sum % 10);
}

/** A passport's TD3 MRZ with right check digits, from its fields. */
function passportMrz(fields: { surname: string; given: string; number: string; birth: string; expiry: string }) {
  const name = `${fields.surname}<<${fields.given.replaceAll(' ', '<')}`.padEnd(39, '<').slice(0, 39);
  const number = fields.number.padEnd(9, '<');
  const personal = '<'.repeat(14);
  const parts = [
    `${number}${checkDigit(number)}`,
    `${fields.birth}${checkDigit(fields.birth)}`,
    `${fields.expiry}${checkDigit(fields.expiry)}`,
    `${personal}${checkDigit(personal)}`,
  ];
  const [documentPart, birthPart, expiryPart, personalPart] = parts as [string, string, string, string];
  const composite = checkDigit(`${documentPart}${birthPart}${expiryPart}${personalPart}`);
  const line2 = `${documentPart}KEN${birthPart}F${expiryPart}${personalPart}${composite}`;
  return `P<KEN${name}\n${line2}`;
}

const amani = {
  idNumber: 'AK1234567',
  firstName: 'Amani',
  lastName: 'Otieno',
  dateOfBirth: '1994-05-17',
  documentExpiry: '2031-06-30',
  nationality: 'KEN',
};
const amaniMrz = passportMrz({
  surname: 'OTIENO',
  given: 'AMANI WANJIKU',
  number: 'AK1234567',
  birth: '940517',
  expiry: '310630',
});

describe('the MRZ check', () => {
  it('passes an MRZ whose check digits are right and which matches what was typed, in any order and case', () => {
    const reading = mrzCheck({ ...amani, mrz: amaniMrz });
    expect(reading.result).toMatchObject({ kind: 'mrz', source: 'service', outcome: 'passed' });
    expect(reading.expiry).toBe('2031-06-30');
    // Accents and case are an MRZ's way of writing, not a difference; a middle name left out is no mismatch.
    const accented = mrzCheck({ ...amani, firstName: 'ámani', lastName: 'OTIENO', mrz: amaniMrz });
    expect(accented.result.outcome).toBe('passed');
  });

  it('fails wrong check digits, naming the fields and no data', () => {
    const lines = amaniMrz.split('\n');
    const line2 = lines[1] ?? '';
    const altered = `${lines[0]}\n${line2.slice(0, 9)}${(Number(line2[9]) + 1) % 10}${line2.slice(10)}`;
    const { result } = mrzCheck({ ...amani, mrz: altered });
    expect(result).toMatchObject({ outcome: 'failed', code: 'mrz_check_digits' });
    expect(result.details?.invalidFields).toContain('documentNumberCheckDigit');
    expect(JSON.stringify(result)).not.toContain('AK1234567');
  });

  it('fails an MRZ that differs from the number, date of birth, expiry, nationality or names typed', () => {
    const { result } = mrzCheck({
      ...amani,
      idNumber: 'AK7654321',
      dateOfBirth: '1994-05-18',
      documentExpiry: '2031-07-30',
      nationality: 'UGA',
      firstName: 'Baraka',
      mrz: amaniMrz,
    });
    expect(result).toMatchObject({ outcome: 'failed', code: 'mrz_mismatch' });
    expect(result.details?.mismatched).toEqual(['idNumber', 'dateOfBirth', 'documentExpiry', 'nationality', 'names']);
    expect(result.summary).toBe(
      'The MRZ differs from what was typed: the passport number, the date of birth, the expiry date, the nationality, the names.',
    );
  });

  it('fails an MRZ that is not a passport’s, and leaves a passport without one unchecked', () => {
    const idCard = amaniMrz.replace(/^P</, 'I<');
    expect(mrzCheck({ ...amani, mrz: idCard }).result).toMatchObject({ outcome: 'failed', code: 'mrz_unreadable' });
    expect(mrzCheck({ ...amani, mrz: undefined }).result.outcome).toBe('not_applicable');
  });
});

describe('the document expiry check', () => {
  const today = '2026-12-04';

  it('passes a document valid until today or later and asks for the document again once it expired', () => {
    const on = (date: string) => documentExpiryCheck({ date, from: 'typed' }, { idType: 'national_id', today });
    expect(on('2026-12-04').outcome).toBe('passed');
    expect(on('2030-01-01').outcome).toBe('passed');
    expect(on('2026-12-03')).toMatchObject({
      outcome: 'failed',
      code: 'document_expired',
      consequence: { decision: 'requires_input', resubmitDocuments: ['id_document_front', 'id_document_back'] },
    });
    const passport = documentExpiryCheck({ date: '2020-01-01', from: 'mrz' }, { idType: 'passport', today });
    expect(passport).toMatchObject({
      details: { from: 'mrz' },
      consequence: { resubmitDocuments: ['id_document_front'] },
    });
  });

  it('has nothing to check without an expiry', () => {
    expect(documentExpiryCheck(undefined, { idType: 'national_id', today }).outcome).toBe('not_applicable');
  });
});

describe('the age check', () => {
  it('counts whole years, a birthday from its day', () => {
    expect(yearsBetween('2008-12-04', '2026-12-04')).toBe(18);
    expect(yearsBetween('2008-12-05', '2026-12-04')).toBe(17);
    expect(yearsBetween('1990-01-01', '2026-12-04')).toBe(36);
  });

  it('counts a 29 February birthday from 1 March in a year without one', () => {
    expect(yearsBetween('2008-02-29', '2026-02-28')).toBe(17);
    expect(yearsBetween('2008-02-29', '2026-03-01')).toBe(18);
    expect(yearsBetween('2008-02-29', '2028-02-29')).toBe(20);
  });

  it('refuses a person under the minimum age and passes one at it', () => {
    const check = (dateOfBirth: string | undefined) =>
      ageCheck(dateOfBirth, { minimumAge: 18, today: '2026-12-04', from: 'typed' });
    expect(check('2008-12-04').outcome).toBe('passed');
    expect(check('2008-12-05')).toMatchObject({
      outcome: 'failed',
      code: 'under_age',
      consequence: { decision: 'rejected', reason: 'The person is younger than 18, the minimum age' },
    });
    expect(check(undefined).outcome).toBe('not_applicable');
    const registry = ageCheck('2010-01-01', { minimumAge: 21, today: '2026-12-04', from: 'registry' });
    expect(registry).toMatchObject({ outcome: 'failed', details: { minimumAge: 21, from: 'registry' } });
  });

  it('reads the registry’s date of birth from the registry check’s evidence only', () => {
    const registry = (dateOfBirth: unknown) => ({
      kind: 'id_registry' as const,
      source: 'smile_id' as const,
      outcome: 'passed' as const,
      summary: '',
      evidence: { dateOfBirth },
    });
    expect(registryBirthDate([registry('1990-04-12')])).toBe('1990-04-12');
    expect(registryBirthDate([registry('Not Provided')])).toBeUndefined();
    expect(registryBirthDate([{ ...registry('1990-04-12'), kind: 'face_match' }])).toBeUndefined();
  });
});
