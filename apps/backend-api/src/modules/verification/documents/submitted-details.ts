import { type IdType, idTypes, type VerificationType } from '@platform/db';
import type { ValidationDetail } from '@platform/errors';
import type { StatedPerson, SubmittedDetails } from '@platform/verification-lifecycle';
import countries from 'i18n-iso-countries';
import { nairobiDay } from '../checks/index.js';

// What a person or a business states about themselves at submission, checked and normalized
// (docs/decisions.md#capture-by-api). Kept only sealed by the vault, never in plaintext.

export interface SubmissionInput {
  idType?: string | undefined;
  idNumber?: string | undefined;
  firstName?: string | undefined;
  middleName?: string | undefined;
  lastName?: string | undefined;
  dateOfBirth?: string | undefined;
  documentExpiry?: string | undefined;
  nationality?: string | undefined;
  mrz?: string | undefined;
  registrationNumber?: string | undefined;
  companyName?: string | undefined;
}

/** The kyc fields a person states beyond the ID type and number, each optional. */
const statedFields = [
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'documentExpiry',
  'nationality',
  'mrz',
] as const satisfies readonly (keyof SubmissionInput)[];

// What a person states beyond the ID number (docs/decisions.md#verification-checks) is compared with the registry
// and the document. Optional in the API (a submission before them stays valid); dates `YYYY-MM-DD`, nationality ISO
// 3166 alpha-3, `mrz` a passport's machine-readable zone as read (two lines of 44, joined by a newline). The sealed
// shape, `SubmittedDetails`, is the lifecycle package's, which every reader opens.

/**
 * ID numbers by type, after trimming (and upper-casing letters):
 * - national_id: a Kenyan ID card number (6-8 digits) or a Maisha card's (9 digits);
 * - passport: an ICAO 9303 document number, 6-9 letters and digits with at least one digit (Kenyan: AK1234567);
 * - alien_id: a foreign national certificate, 6-10 letters and digits with at least one digit.
 */
const idNumberPatterns: Readonly<Record<IdType, RegExp>> = {
  national_id: /^[0-9]{6,9}$/,
  passport: /^(?=[A-Z]*[0-9])[A-Z0-9]{6,9}$/,
  alien_id: /^(?=[A-Z]*[0-9])[A-Z0-9]{6,10}$/,
};

/**
 * Business Registration Service numbers, after trimming and upper-casing: the current form (`PVT-AB12CD3`, with
 * PVT, PLC, CLG, BN, LLP, FC or COP, then 6-8 letters and digits), the earlier year form (`CPR/2015/123456`,
 * `BN/2016/12345`) and the oldest companies' (`C.12345`).
 */
const registrationNumberPatterns: readonly RegExp[] = [
  /^(PVT|PLC|CLG|BN|LLP|FC|COP)-[A-Z0-9]{6,8}$/,
  /^(CPR|BN|LLP|CLG|PVT)\/(19|20)[0-9]{2}\/[0-9]{1,7}$/,
  /^C\.[0-9]{1,7}$/,
];

const MAX_COMPANY_NAME = 200;
const MAX_PERSON_NAME = 100;
/** Letters of any script with their accents, and the spaces, hyphens, apostrophes and dots names carry. */
const personNamePattern = /^(?=.*\p{L})[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
const isoDatePattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
/** A passport's machine-readable zone (ICAO 9303 TD3): two lines of 44 of A-Z, 0-9 and the filler `<`. */
const mrzLinePattern = /^[A-Z0-9<]{44}$/;
const EARLIEST_BIRTH_YEAR = 1900;

/** Whether the body states any detail at all (a requires_input submission without any keeps the earlier ones). */
export function givesDetails(input: SubmissionInput): boolean {
  return (
    input.idType !== undefined ||
    input.idNumber !== undefined ||
    input.registrationNumber !== undefined ||
    input.companyName !== undefined ||
    statedFields.some((field) => input[field] !== undefined)
  );
}

/** A real calendar day written `YYYY-MM-DD`, as a Date at its UTC midnight; undefined for anything else. */
function calendarDay(text: string): Date | undefined {
  const match = isoDatePattern.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : undefined;
}

/** The lines of an MRZ as typed or pasted: upper-cased, each line's surrounding spaces dropped, blank lines left out. */
function mrzLines(text: string): string[] {
  return text
    .toUpperCase()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The stated person fields, normalized (names trimmed and NFC, nationality and MRZ upper-case, the MRZ's lines
 * joined by one newline), each problem naming its field. A date of birth after `today` (Nairobi's calendar day) or
 * before 1900 is refused here; a past expiry or an under-age date is the checks' to judge, not the input's.
 */
function checkStatedPerson(
  input: SubmissionInput,
  idType: IdType | undefined,
  today: string,
  problems: ValidationDetail[],
): StatedPerson {
  const stated: StatedPerson = {};
  for (const field of ['firstName', 'middleName', 'lastName'] as const) {
    const name = input[field]?.normalize('NFC').trim().replace(/\s+/g, ' ');
    if (name === undefined) continue;
    if (name === '' || name.length > MAX_PERSON_NAME || !personNamePattern.test(name)) {
      problems.push({
        path: `/${field}`,
        message: `must be 1-${MAX_PERSON_NAME} letters (spaces, hyphens, apostrophes and dots allowed)`,
      });
    } else stated[field] = name;
  }
  if (input.dateOfBirth !== undefined) {
    const text = input.dateOfBirth.trim();
    const day = calendarDay(text);
    if (day === undefined) problems.push({ path: '/dateOfBirth', message: 'must be a date written YYYY-MM-DD' });
    else if (day.getUTCFullYear() < EARLIEST_BIRTH_YEAR || text > today) {
      problems.push({ path: '/dateOfBirth', message: `must be a day from ${EARLIEST_BIRTH_YEAR} to today` });
    } else stated.dateOfBirth = text;
  }
  if (input.documentExpiry !== undefined) {
    const text = input.documentExpiry.trim();
    if (calendarDay(text) === undefined) {
      problems.push({ path: '/documentExpiry', message: 'must be a date written YYYY-MM-DD' });
    } else stated.documentExpiry = text;
  }
  if (input.nationality !== undefined) {
    const code = input.nationality.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code) || !countries.isValid(code)) {
      problems.push({ path: '/nationality', message: 'must be an ISO 3166 alpha-3 country code, such as KEN' });
    } else stated.nationality = code;
  }
  if (input.mrz !== undefined) {
    const lines = mrzLines(input.mrz);
    if (idType !== undefined && idType !== 'passport') {
      problems.push({ path: '/mrz', message: 'is taken only with idType passport' });
    } else if (lines.length !== 2 || !lines.every((line) => mrzLinePattern.test(line))) {
      problems.push({
        path: '/mrz',
        message: "must be the passport's two machine-readable lines of 44 characters (A-Z, 0-9 and <)",
      });
    } else stated.mrz = lines.join('\n');
  }
  return stated;
}

function isIdType(value: string): value is IdType {
  return (idTypes as readonly string[]).includes(value);
}

/** The details the body states for a session of `type`, or every problem with them (each naming its field). */
export function checkSubmittedDetails(
  type: VerificationType,
  input: SubmissionInput,
  now: Date,
): { details: SubmittedDetails | undefined; idType: IdType | undefined; problems: ValidationDetail[] } {
  const problems: ValidationDetail[] = [];
  const notForType = (field: keyof SubmissionInput) => {
    if (input[field] !== undefined) problems.push({ path: `/${field}`, message: `is not taken for a ${type} session` });
  };

  if (type === 'kyc') {
    notForType('registrationNumber');
    notForType('companyName');
    const idType = input.idType !== undefined && isIdType(input.idType) ? input.idType : undefined;
    if (idType === undefined) {
      problems.push({
        path: '/idType',
        message: input.idType === undefined ? 'is required' : `must be one of ${idTypes.join(', ')}`,
      });
    }
    const idNumber = input.idNumber?.trim().toUpperCase();
    if (idNumber === undefined || idNumber === '') {
      problems.push({ path: '/idNumber', message: 'is required' });
    } else if (idType !== undefined && !idNumberPatterns[idType].test(idNumber)) {
      problems.push({ path: '/idNumber', message: `is not a valid ${idType.replace('_', ' ')} number` });
    }
    const stated = checkStatedPerson(input, idType, nairobiDay(now), problems);
    const details =
      problems.length === 0 && idType !== undefined && idNumber !== undefined
        ? { type, idType, idNumber, ...stated }
        : undefined;
    return { details, idType, problems };
  }

  notForType('idType');
  notForType('idNumber');
  for (const field of statedFields) notForType(field);
  const registrationNumber = input.registrationNumber?.trim().toUpperCase();
  if (registrationNumber === undefined || registrationNumber === '') {
    problems.push({ path: '/registrationNumber', message: 'is required' });
  } else if (!registrationNumberPatterns.some((pattern) => pattern.test(registrationNumber))) {
    problems.push({
      path: '/registrationNumber',
      message: 'is not a Business Registration Service number (such as PVT-AB12CD3 or CPR/2015/123456)',
    });
  }
  const companyName = input.companyName?.trim();
  if (companyName !== undefined && (companyName === '' || companyName.length > MAX_COMPANY_NAME)) {
    problems.push({ path: '/companyName', message: `must be 1-${MAX_COMPANY_NAME} characters` });
  }
  const details =
    problems.length === 0 && registrationNumber !== undefined
      ? { type, registrationNumber, companyName: companyName ?? null }
      : undefined;
  return { details, idType: undefined, problems };
}
