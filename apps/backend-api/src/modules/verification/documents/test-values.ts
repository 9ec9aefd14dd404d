import { type Transaction, unitOfWorkIn, type VerificationSession, type VerificationType } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { findOrganization } from '@platform/organizations';
import type { SubmittedDetails } from '@platform/verification-lifecycle';
import {
  type LifecycleOptions,
  type MoveResult,
  moveSession,
  sealedVerifiedOutputs,
} from '@platform/verification-lifecycle';
import {
  type CheckResult,
  decideFromChecks,
  policyNamed,
  recordChecks,
  submissionResults,
  type VerificationPolicy,
  writeDecisionPolicy,
} from '../checks/index.js';

// The fake results of the test values (docs/decisions.md#test-values): a test session submitted with one gets the
// checks a live session gets from Smile ID, of the same kinds and shapes, with source `test`, and is decided from
// them by the organization's policy like a live one, so an integrator reads the same `checks`, reasons and verified
// data in test mode as in live. The test registry's record is what was typed, as a real one matches a true person.

type TestValue = 'verified' | 'rejected' | 'requires_input' | 'review';

/** National ID numbers no Kenyan ID card has (seven leading zeros), and registration numbers no company has. */
const TEST_VALUES: Readonly<Record<VerificationType, Readonly<Record<string, TestValue>>>> = {
  kyc: { '00000001': 'verified', '00000002': 'rejected', '00000003': 'requires_input', '00000004': 'review' },
  // A business registry's failure always goes to a person (docs/decisions.md#verification-policy), so a KYB is
  // verified or reviewed automatically, never refused or sent back: the test values are those two.
  kyb: { 'PVT-00000001': 'verified', 'PVT-00000004': 'review' },
};

/** Whether the details name one of the test ID numbers or registration numbers. */
export function isTestIdNumber(details: SubmittedDetails): boolean {
  return testValueOf(details) !== undefined;
}

/** The test value a submission's details name, if any (only national ID numbers among the kyc ones). */
function testValueOf(details: SubmittedDetails): TestValue | undefined {
  if (details.type === 'kyb') return TEST_VALUES.kyb[details.registrationNumber];
  if (details.idType !== 'national_id') return undefined;
  return TEST_VALUES.kyc[details.idNumber];
}

const source = 'test' as const;
const TEST_DATE_OF_BIRTH = '1990-01-01';

/** The test registry's record of the person: the names and date of birth typed (a fixed adult's date without one). */
function registryRecord(details: Extract<SubmittedDetails, { type: 'kyc' }>): Record<string, unknown> {
  const typedNames = [details.firstName, details.middleName, details.lastName].filter((name) => name !== undefined);
  return {
    fullName: typedNames.length > 0 ? typedNames.join(' ').toUpperCase() : 'TEST PERSON',
    dateOfBirth: details.dateOfBirth ?? TEST_DATE_OF_BIRTH,
    idNumber: details.idNumber,
    country: 'KE',
  };
}

function personChecks(details: Extract<SubmittedDetails, { type: 'kyc' }>, value: TestValue): CheckResult[] {
  const registry: CheckResult =
    value === 'review'
      ? {
          kind: 'id_registry',
          source,
          outcome: 'attention',
          code: 'partial_name_match',
          summary: 'The names typed partly match the registry (IPRS) record (test value 00000004).',
          details: { mismatched: ['names'] },
          evidence: registryRecord(details),
        }
      : {
          kind: 'id_registry',
          source,
          outcome: 'passed',
          summary: 'The ID number was found in the registry (IPRS) and the details typed match it.',
          details: { matched: ['idNumber', 'names', 'dateOfBirth'] },
          evidence: registryRecord(details),
        };
  const document: CheckResult =
    value === 'rejected'
      ? {
          kind: 'document_authenticity',
          source,
          outcome: 'failed',
          code: 'document_not_verified',
          summary: 'The ID document could not be verified (test value 00000002).',
          consequence: { decision: 'rejected', reason: 'The ID document could not be verified (test value 00000002)' },
        }
      : { kind: 'document_authenticity', source, outcome: 'passed', summary: 'The ID document is genuine.' };
  const face: CheckResult =
    value === 'requires_input'
      ? {
          kind: 'face_match',
          source,
          outcome: 'failed',
          code: 'face_not_matched',
          summary: 'The selfie does not match the registry photo (test value 00000003).',
          details: { comparedWith: 'registry_photo' },
          consequence: {
            decision: 'requires_input',
            reason: 'The selfie does not match the ID document: take it again (test value 00000003)',
            resubmitDocuments: ['selfie'],
          },
        }
      : {
          kind: 'face_match',
          source,
          outcome: 'passed',
          summary: 'The selfie matches the registry photo.',
          details: { comparedWith: 'registry_photo' },
        };
  const liveness: CheckResult = {
    kind: 'liveness',
    source,
    outcome: 'passed',
    summary: 'The selfie is of a live person.',
  };
  const screening: CheckResult = {
    kind: 'aml_screening',
    source,
    outcome: 'passed',
    summary: 'No sanctions, PEP or adverse media entries were found.',
  };
  return [registry, document, face, liveness, screening];
}

function businessChecks(details: Extract<SubmittedDetails, { type: 'kyb' }>, value: TestValue): CheckResult[] {
  const record = {
    registeredName: details.companyName?.toUpperCase() ?? 'TEST COMPANY LIMITED',
    registrationNumber: details.registrationNumber,
    status: 'registered',
    registrationDate: '2015-06-01',
    directors: [{ name: 'TEST DIRECTOR', role: 'director' }],
    beneficialOwners: [{ name: 'TEST DIRECTOR', role: 'shareholder', shareholdingPercent: 100 }],
  };
  const registry: CheckResult =
    value === 'review'
      ? {
          kind: 'business_registry',
          source,
          outcome: 'attention',
          code: 'name_mismatch',
          summary: 'The company name typed differs from the registry (BRS) record (test value PVT-00000004).',
          details: { mismatched: ['companyName'] },
          evidence: record,
        }
      : {
          kind: 'business_registry',
          source,
          outcome: 'passed',
          summary: 'The company is registered with the Business Registration Service and the details match.',
          details: { directors: record.directors.length, beneficialOwners: record.beneficialOwners.length },
          evidence: record,
        };
  // Test mode sends no director a link: the registry's directors are taken as verified.
  const directors: CheckResult = {
    kind: 'directors',
    source,
    outcome: 'passed',
    summary: 'Every director the registry names is taken as verified (test mode sends no links).',
    details: { directors: record.directors.length },
  };
  const screening: CheckResult = {
    kind: 'aml_screening',
    source,
    outcome: 'passed',
    summary: 'No sanctions, PEP or adverse media entries were found for the company or its directors.',
  };
  return [registry, directors, screening];
}

/**
 * The fake checks of a submission that names a test value, as Smile ID's would be for a person or business of that
 * outcome under `policy`; undefined for any other submission.
 */
function testValueChecks(details: SubmittedDetails, policy: VerificationPolicy): CheckResult[] | undefined {
  const value = testValueOf(details);
  if (value === undefined) return undefined;
  const checks = details.type === 'kyc' ? personChecks(details, value) : businessChecks(details, value);
  // Screening runs when the policy asks for it, as live (docs/decisions.md#verification-policy).
  const screened = policy[details.type].required.includes('aml_screening');
  return checks.filter((check) => screened || check.kind !== 'aml_screening');
}

const ACTOR = 'test_value';

/**
 * Decides a just-submitted test session the sandbox decides, when its details name a test value, in the submission's
 * transaction: the fake checks recorded beside the service's own, the organization's policy applied to them all, and
 * the decision moved through the lifecycle (its callbacks, the test wallet's capture) a millisecond after the
 * submission so every timeline lists it after. `review` leaves the session in processing, where a person decides
 * (the sandbox buttons or a test decision): test sessions have no reviewer. Undefined when nothing was decided.
 */
export async function decideByTestValue(
  tx: Transaction,
  vault: DocumentVault,
  request: { session: VerificationSession; details: SubmittedDetails; now: Date },
  lifecycle: LifecycleOptions,
): Promise<MoveResult | undefined> {
  const { session, details, now } = request;
  if (session.environment !== 'test' || session.decisionSource !== 'sandbox' || session.status !== 'processing') {
    return undefined;
  }
  const policy = policyNamed((await findOrganization(tx, session.organizationId))?.verificationPolicy);
  const checks = testValueChecks(details, policy);
  if (checks === undefined || session.submittedAt === null) return undefined;
  await recordChecks(tx, vault, session, session.submittedAt, checks, now);
  const idType = details.type === 'kyc' ? details.idType : undefined;
  const decision = decideFromChecks(policy, session.type, idType, await submissionResults(tx, session));
  await writeDecisionPolicy(tx, session.id, policy.name);
  if (decision.decision === 'review') return undefined;
  const verifiedOutputs =
    decision.decision === 'verified' ? await sealedVerifiedOutputs(tx, vault, session) : undefined;
  return unitOfWorkIn(tx, (work) =>
    moveSession(
      work,
      {
        sessionId: session.id,
        to: decision.decision,
        actor: ACTOR,
        reason: decision.decision === 'verified' ? null : decision.reason,
        ...(decision.decision === 'requires_input' ? { resubmitDocuments: decision.resubmitDocuments } : {}),
        verifiedOutputs,
        now: new Date(now.getTime() + 1),
      },
      lifecycle,
    ),
  );
}
