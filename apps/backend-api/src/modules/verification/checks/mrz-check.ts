import type { StatedPerson } from '@platform/verification-lifecycle';
import { parse } from 'mrz';
import type { CheckResult } from './check-results.js';

// The MRZ check (docs/decisions.md#own-checks): a passport's machine-readable zone, as the person typed or pasted
// it, read by the `mrz` library (ICAO 9303 TD3), its check digits verified, and what it says compared with what was
// typed beside it. Only a passport has one here; a passport submitted without it is not checked. A failure goes to
// a person (the policy's reviewOnFailure): a misread character is likelier than a forgery.

/** What the check compares: the passport's number and what the person stated. */
export interface MrzSubject extends StatedPerson {
  idNumber: string;
}

export interface MrzReading {
  result: CheckResult;
  /** The expiry the MRZ states, `YYYY-MM-DD`, when it was read with valid check digits. */
  expiry?: string | undefined;
}

const source = 'service' as const;

/** Letters only, without accents, upper-case, split into words: how a name is written in an MRZ. */
function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’]/g, '')
    .split(/[^A-Z]+/)
    .filter((word) => word !== '');
}

/** `YYYY-MM-DD` as an MRZ writes it, `YYMMDD`. */
function mrzDate(date: string): string {
  return `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}`;
}

/** An MRZ expiry `YYMMDD` as `YYYY-MM-DD`: passports expire at most ten years ahead, so always in this century. */
function expiryOf(yymmdd: string): string {
  return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

type Parsed = ReturnType<typeof parse>;

function readMrz(mrz: string): Parsed | undefined {
  try {
    return parse(mrz.split('\n'));
  } catch {
    return undefined;
  }
}

/** The fields typed beside the MRZ that differ from it (names: every word typed must be in the MRZ's). */
function mismatchedFields(parsed: Parsed, subject: MrzSubject, nameTruncated: boolean): string[] {
  const { fields } = parsed;
  const mismatched: string[] = [];
  if ((fields.documentNumber ?? '').replaceAll('<', '') !== subject.idNumber) mismatched.push('idNumber');
  if (subject.dateOfBirth !== undefined && fields.birthDate !== mrzDate(subject.dateOfBirth)) {
    mismatched.push('dateOfBirth');
  }
  if (subject.documentExpiry !== undefined && fields.expirationDate !== mrzDate(subject.documentExpiry)) {
    mismatched.push('documentExpiry');
  }
  if (subject.nationality !== undefined && fields.nationality !== subject.nationality) mismatched.push('nationality');
  const typedNames = [subject.firstName, subject.middleName, subject.lastName].filter((name) => name !== undefined);
  if (typedNames.length > 0 && !nameTruncated) {
    const inMrz = new Set(nameWords(`${fields.lastName ?? ''} ${fields.firstName ?? ''}`));
    if (!typedNames.flatMap(nameWords).every((word) => inMrz.has(word))) mismatched.push('names');
  }
  return mismatched;
}

const LABELS: Readonly<Record<string, string>> = {
  idNumber: 'the passport number',
  dateOfBirth: 'the date of birth',
  documentExpiry: 'the expiry date',
  nationality: 'the nationality',
  names: 'the names',
};

export function mrzCheck(subject: MrzSubject): MrzReading {
  if (subject.mrz === undefined) {
    return { result: { kind: 'mrz', source, outcome: 'not_applicable', summary: 'No MRZ was stated.' } };
  }
  const parsed = readMrz(subject.mrz);
  if (parsed === undefined || parsed.format !== 'TD3' || parsed.fields.documentCode?.startsWith('P') !== true) {
    return {
      result: {
        kind: 'mrz',
        source,
        outcome: 'failed',
        code: 'mrz_unreadable',
        summary: 'The MRZ typed is not a passport’s machine-readable zone.',
      },
    };
  }
  const invalid = parsed.details.filter((detail) => !detail.valid).map((detail) => detail.field ?? detail.label);
  if (invalid.length > 0) {
    const digits = invalid.filter((field) => field.endsWith('CheckDigit'));
    return {
      result: {
        kind: 'mrz',
        source,
        outcome: 'failed',
        code: digits.length > 0 ? 'mrz_check_digits' : 'mrz_invalid',
        summary:
          digits.length > 0
            ? 'The MRZ’s check digits do not add up: it was mistyped or altered.'
            : 'The MRZ holds fields no passport has (such as an unknown country code).',
        details: { invalidFields: invalid },
      },
    };
  }
  const expiry = parsed.fields.expirationDate;
  const read = { expiry: expiry === null || expiry === undefined ? undefined : expiryOf(expiry) };
  // A name that fills the MRZ's name field was cut short: its last words cannot be compared.
  const nameTruncated = !(subject.mrz.split('\n')[0] ?? '').endsWith('<');
  const mismatched = mismatchedFields(parsed, subject, nameTruncated);
  if (mismatched.length > 0) {
    const list = mismatched.map((field) => LABELS[field] ?? field).join(', ');
    return {
      ...read,
      result: {
        kind: 'mrz',
        source,
        outcome: 'failed',
        code: 'mrz_mismatch',
        summary: `The MRZ differs from what was typed: ${list}.`,
        details: { mismatched },
      },
    };
  }
  return {
    ...read,
    result: {
      kind: 'mrz',
      source,
      outcome: 'passed',
      summary: 'The MRZ’s check digits are right and it matches what was typed.',
    },
  };
}
