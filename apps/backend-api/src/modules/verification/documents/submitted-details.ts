import { type IdType, idTypes, type VerificationType } from '@platform/db';
import type { ValidationDetail } from '@platform/errors';

// What a person or a business states about themselves at submission, checked and normalized
// (docs/decisions.md#capture-by-api). Kept only sealed by the vault, never in plaintext.

export interface SubmissionInput {
  idType?: string | undefined;
  idNumber?: string | undefined;
  registrationNumber?: string | undefined;
  companyName?: string | undefined;
}

/**
 * What a person states beyond the ID number (docs/decisions.md#verification-checks): compared with the registry and
 * the document. Optional in the API (a submission before them stays valid); dates `YYYY-MM-DD`, nationality ISO 3166
 * alpha-3, `mrz` a passport's machine-readable zone as read (two lines of 44, joined by a newline).
 */
interface StatedPerson {
  firstName?: string | undefined;
  middleName?: string | undefined;
  lastName?: string | undefined;
  dateOfBirth?: string | undefined;
  documentExpiry?: string | undefined;
  nationality?: string | undefined;
  mrz?: string | undefined;
}

export type SubmittedDetails =
  | ({ type: 'kyc'; idType: IdType; idNumber: string } & StatedPerson)
  | { type: 'kyb'; registrationNumber: string; companyName: string | null };

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

/** Whether the body states any detail at all (a requires_input submission without any keeps the earlier ones). */
export function givesDetails(input: SubmissionInput): boolean {
  return (
    input.idType !== undefined ||
    input.idNumber !== undefined ||
    input.registrationNumber !== undefined ||
    input.companyName !== undefined
  );
}

function isIdType(value: string): value is IdType {
  return (idTypes as readonly string[]).includes(value);
}

/** The details the body states for a session of `type`, or every problem with them (each naming its field). */
export function checkSubmittedDetails(
  type: VerificationType,
  input: SubmissionInput,
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
    const details =
      problems.length === 0 && idType !== undefined && idNumber !== undefined ? { type, idType, idNumber } : undefined;
    return { details, idType, problems };
  }

  notForType('idType');
  notForType('idNumber');
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
