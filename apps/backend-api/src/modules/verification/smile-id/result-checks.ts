import type { CheckResult } from '../checks/index.js';
import { isRecord, type SmileIdResult } from './client.js';

// The checks of Enhanced KYC, Business Verification and the AML Check (docs/decisions.md#smile-id-result-codes):
// each job type's result codes, and the parts of the answer that say more (Actions, the registry's record, the
// company's information, the screening's people). The person's data goes to `evidence` (sealed), never to a summary
// or the details.

type Body = Readonly<Record<string, unknown>>;
const text = (body: Body, key: string): string | null =>
  typeof body[key] === 'string' && body[key] !== '' ? (body[key] as string) : null;

const unavailable = (kind: CheckResult['kind'], code: string, summary: string): CheckResult => ({
  kind,
  source: 'smile_id',
  outcome: 'unavailable',
  code,
  summary,
});
/** A code the job type's table does not know: the checks it should have made could not be (and a person decides). */
export function unmapped(kinds: readonly CheckResult['kind'][], code: string): CheckResult[] {
  return kinds.map((kind) => ({
    kind,
    source: 'smile_id',
    outcome: 'unavailable',
    code,
    summary: `Smile ID answered result code ${code}, which this service does not map.`,
    details: { unmapped: true },
  }));
}

export function isUnmapped(check: CheckResult): boolean {
  return check.outcome === 'unavailable' && check.details?.unmapped === true;
}

/** Enhanced KYC's codes: 1012 the number was found (Actions then say what matched); the rest say why not. */
const ENHANCED_KYC_NOT_VALIDATED: Readonly<Record<string, string>> = {
  '1014': 'The registry does not take this ID type; a reviewer checks the ID.',
  '1015': 'The registry (IPRS) did not answer; a reviewer checks the ID.',
  '1016': 'Smile ID has not enabled the registry lookup for this account; a reviewer checks the ID.',
};

const MATCHED = new Set(['Exact Match', 'Not Provided']);

export function enhancedKycChecks(result: SmileIdResult): CheckResult[] {
  const { body, resultCode: code } = result;
  if (code === '1013') {
    return [
      {
        kind: 'id_registry',
        source: 'smile_id',
        outcome: 'failed',
        code,
        summary: 'The ID number typed was not found in the registry (IPRS).',
        details: { mismatched: ['idNumber'] },
        consequence: {
          decision: 'requires_input',
          reason: 'The ID number was not found in the registry. Check it against your ID document and submit it again.',
          resubmitDocuments: [],
        },
      },
    ];
  }
  const why = ENHANCED_KYC_NOT_VALIDATED[code];
  if (why !== undefined) return [unavailable('id_registry', code, why)];
  if (code !== '1012') return unmapped(['id_registry'], code);

  const actions = isRecord(body.Actions) ? body.Actions : {};
  const names = typeof actions.Names === 'string' ? actions.Names : 'Not Provided';
  const dob = typeof actions.DOB === 'string' ? actions.DOB : 'Not Provided';
  const mismatched = [...(MATCHED.has(names) ? [] : ['names']), ...(MATCHED.has(dob) ? [] : ['dateOfBirth'])];
  const registryPhoto = text(body, 'Photo') !== null;
  const evidence = {
    fullName: text(body, 'FullName'),
    dateOfBirth: text(body, 'DOB'),
    idNumber: text(body, 'IDNumber'),
    expirationDate: text(body, 'ExpirationDate'),
    country: text(body, 'Country'),
    names,
    dob,
  };
  const details = { registryPhoto, names, dateOfBirth: dob };
  const base = { kind: 'id_registry', source: 'smile_id', code, evidence } as const;
  if (mismatched.length === 0) {
    return [{ ...base, outcome: 'passed', summary: 'The ID number was found in the registry and matches.', details }];
  }
  const bothDiffer = names !== 'Partial Match' && mismatched.length === 2;
  const partialOnly = names === 'Partial Match' && mismatched.length === 1;
  const [finding, summary] = bothDiffer
    ? [
        'id_number_mismatch',
        'The ID number typed belongs to a registry record whose names and date of birth differ from those typed.',
      ]
    : partialOnly
      ? ['names_partial_match', 'The names typed match the registry’s record only in part.']
      : mismatched.includes('dateOfBirth') && mismatched.length === 1
        ? ['dob_mismatch', 'The date of birth typed differs from the registry’s record.']
        : ['names_mismatch', 'The names typed differ from the registry’s record.'];
  return [{ ...base, outcome: 'attention', code: finding, summary, details: { ...details, mismatched } }];
}

/** Business Verification's codes: 1012 found (the status then decides), 1013 not found, 1014 a malformed number. */
export function businessChecks(result: SmileIdResult): CheckResult[] {
  const { body, resultCode: code } = result;
  const notFound = (summary: string, reason: string): CheckResult[] => [
    {
      kind: 'business_registry',
      source: 'smile_id',
      outcome: 'failed',
      code,
      summary,
      consequence: { decision: 'requires_input', reason, resubmitDocuments: [] },
    },
  ];
  if (code === '1013') {
    return notFound(
      'The registration number was not found in the business registry (BRS).',
      'The registration number was not found in the business registry. Check it against the certificate of ' +
        'incorporation and submit it again.',
    );
  }
  if (code === '1014') {
    return notFound(
      'The registration number is not in a form the business registry knows.',
      'The registration number is not in a form the business registry knows. Check it and submit it again.',
    );
  }
  if (code === '1015') return [unavailable('business_registry', code, 'The business registry (BRS) did not answer.')];
  if (code !== '1012') return unmapped(['business_registry'], code);
  const company = isRecord(body.company_information) ? body.company_information : {};
  const status = (text(company, 'status') ?? 'unknown').toLowerCase();
  const people = (key: string) =>
    (Array.isArray(body[key]) ? (body[key] as unknown[]) : []).filter(isRecord).map((person) => ({
      name: text(person, 'name') ?? '',
      role: text(person, 'occupation') ?? text(person, 'type') ?? null,
      shareholdingPercent: typeof person.shareholdings === 'number' ? person.shareholdings : null,
    }));
  const evidence = {
    registeredName: text(company, 'legal_name'),
    registrationNumber: text(company, 'registration_number'),
    status,
    registrationDate: text(company, 'registration_date'),
    directors: people('directors'),
    beneficialOwners: people('beneficial_owners'),
  };
  const details = { status, directors: evidence.directors.length, beneficialOwners: evidence.beneficialOwners.length };
  if (status === 'registered' || status === 'active') {
    return [
      {
        kind: 'business_registry',
        source: 'smile_id',
        outcome: 'passed',
        code,
        summary: 'The business is in the registry and registered.',
        details,
        evidence,
      },
    ];
  }
  return [
    {
      kind: 'business_registry',
      source: 'smile_id',
      outcome: 'attention',
      code,
      summary: `The business registry gives the company's status as ${details.status.replace(/[^a-z _-]/g, '')}.`,
      details,
      evidence,
    },
  ];
}

/** The AML Check's codes, per person screened: 1030 found on a list, 1031 not found. */
export function amlChecks(results: readonly SmileIdResult[]): CheckResult[] {
  const unknown = results.find((result) => result.resultCode !== '1030' && result.resultCode !== '1031');
  if (unknown !== undefined) {
    return unmapped(['aml_screening'], unknown.resultCode);
  }
  const hits = results.flatMap((result) =>
    (Array.isArray(result.body.people) ? (result.body.people as unknown[]) : []).filter(isRecord).map((person) => ({
      name: text(person, 'name'),
      datesOfBirth: person.dates_of_birth ?? null,
      nationalities: person.nationalities ?? null,
      pep: person.pep ?? null,
      sanctions: person.sanctions ?? null,
      adverseMedia: person.adverse_media ?? null,
    })),
  );
  const details = { screened: results.length, hits: hits.length };
  if (hits.length === 0) {
    return [
      {
        kind: 'aml_screening',
        source: 'smile_id',
        outcome: 'passed',
        code: '1031',
        summary: 'No sanctions or PEP list names the person screened.',
        details,
      },
    ];
  }
  return [
    {
      kind: 'aml_screening',
      source: 'smile_id',
      outcome: 'attention',
      code: '1030',
      summary: `The sanctions and PEP screening found ${hits.length} possible ${hits.length === 1 ? 'match' : 'matches'}; a reviewer compares them.`,
      details,
      evidence: { hits },
    },
  ];
}
