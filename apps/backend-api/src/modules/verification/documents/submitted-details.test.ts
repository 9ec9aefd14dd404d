import { describe, expect, it } from 'vitest';
import { checkSubmittedDetails } from './submitted-details.js';

// What a person states beyond the ID number: checked and normalized, each problem naming its field.

/** 2026-12-04 00:30 in Nairobi, still the 3rd in UTC. */
const NOW = new Date('2026-12-03T21:30:00Z');
const MRZ = ['P<KENOTIENO<<AMANI<NJERI<<<<<<<<<<<<<<<<<<<<', 'AK12345674KEN9405170F3108300<<<<<<<<<<<<<<00'].join('\n');

const kyc = (input: Record<string, string>) =>
  checkSubmittedDetails('kyc', { idType: 'national_id', idNumber: '12345678', ...input }, NOW);
const pathsOf = (result: ReturnType<typeof kyc>) => result.problems.map(({ path }) => path);

describe('checkSubmittedDetails: the stated person', () => {
  it('takes names, dates and nationality, normalized', () => {
    const { details, problems } = kyc({
      firstName: '  Amani ',
      middleName: 'Njeri   Wa',
      lastName: "O'Tieno-Ng\u0065\u0301",
      dateOfBirth: '1994-05-17',
      documentExpiry: '2031-08-30',
      nationality: 'ken',
    });
    expect(problems).toEqual([]);
    expect(details).toEqual({
      type: 'kyc',
      idType: 'national_id',
      idNumber: '12345678',
      firstName: 'Amani',
      middleName: 'Njeri Wa',
      lastName: "O'Tieno-Ngé",
      dateOfBirth: '1994-05-17',
      documentExpiry: '2031-08-30',
      nationality: 'KEN',
    });
  });

  it.each([
    [{ firstName: '' }, '/firstName'],
    [{ lastName: '12345' }, '/lastName'],
    [{ middleName: 'A'.repeat(101) }, '/middleName'],
    [{ firstName: 'Amani\u0000' }, '/firstName'],
    [{ dateOfBirth: '17/05/1994' }, '/dateOfBirth'],
    [{ dateOfBirth: '1994-02-30' }, '/dateOfBirth'],
    [{ dateOfBirth: '1899-12-31' }, '/dateOfBirth'],
    [{ documentExpiry: '2031-13-01' }, '/documentExpiry'],
    [{ nationality: 'KE' }, '/nationality'],
    [{ nationality: 'ZZZ' }, '/nationality'],
  ])('refuses %j', (input, path) => {
    const result = kyc(input);
    expect(pathsOf(result)).toEqual([path]);
    expect(result.details).toBeUndefined();
  });

  it("takes a date of birth up to Nairobi's today, not after", () => {
    expect(kyc({ dateOfBirth: '2026-12-04' }).problems).toEqual([]);
    expect(pathsOf(kyc({ dateOfBirth: '2026-12-05' }))).toEqual(['/dateOfBirth']);
  });

  it("takes a passport's MRZ as pasted, upper-cased, its lines joined by one newline", () => {
    const pasted = `  ${MRZ.toLowerCase().replace('\n', ' \r\n\n ')}  \n`;
    const { details, problems } = checkSubmittedDetails(
      'kyc',
      { idType: 'passport', idNumber: 'AK1234567', mrz: pasted },
      NOW,
    );
    expect(problems).toEqual([]);
    expect(details).toMatchObject({ mrz: MRZ });
  });

  it('refuses an MRZ of another shape, or with a document other than a passport', () => {
    const passport = (mrz: string) =>
      pathsOf(checkSubmittedDetails('kyc', { idType: 'passport', idNumber: 'AK1234567', mrz }, NOW));
    expect(passport(MRZ.split('\n')[0] ?? '')).toEqual(['/mrz']);
    expect(passport(MRZ.replace('P<KEN', 'P-KEN'))).toEqual(['/mrz']);
    expect(passport(`${MRZ}<`)).toEqual(['/mrz']);
    expect(kyc({ mrz: MRZ }).problems).toEqual([{ path: '/mrz', message: 'is taken only with idType passport' }]);
  });

  it('takes none of them for a kyb session', () => {
    const { problems } = checkSubmittedDetails(
      'kyb',
      { registrationNumber: 'PVT-AB12CD3', firstName: 'Amani', dateOfBirth: '1994-05-17' },
      NOW,
    );
    expect(problems.map(({ path }) => path)).toEqual(['/firstName', '/dateOfBirth']);
  });
});
