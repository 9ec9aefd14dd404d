import type { ApiKeyOwner, DatabaseExecutor, UnitOfWork, VerificationSession } from '@platform/db';
import { conflict, forbidden, validationError } from '@platform/errors';
import {
  type LifecycleOptions,
  type MoveRequest,
  type MoveResult,
  moveSession,
} from '@platform/verification-lifecycle';
import type { TestDecisionInput } from './schemas.js';
import { readOwnerSession } from './service.js';

// Test decisions (docs/decisions.md#test-decisions): a test session decided by the API, without a browser, as the
// hosted page's sandbox buttons decide it, through the same lifecycle move (its transition, callback, the test
// wallet's capture or release, the metrics' decision).

const LIVE_TEST_DECISION =
  'Test decisions are for test sessions only: use a test key (a live session is decided by its decision source)';

/** The statuses that take a reason and the ones that take documents to send again. */
const takesReason = new Set<string>(['rejected', 'requires_input']);

/** 400 for a reason or documents the status does not take, naming the field. */
function checkDecisionInput(input: TestDecisionInput): void {
  const problems = [];
  if (input.reason !== undefined && !takesReason.has(input.status)) {
    problems.push({ path: '/reason', message: 'is only taken with rejected or requires_input' });
  }
  if (input.resubmitDocuments !== undefined && input.status !== 'requires_input') {
    problems.push({ path: '/resubmitDocuments', message: 'is only taken with requires_input' });
  }
  if (problems.length > 0) throw validationError(`A test decision to ${input.status} takes no such field`, problems);
}

/**
 * The checks of a test decision before anything is written: 403 for a live key (whatever the id: a live session is
 * never decided this way), 400 for a field the status does not take, 404 for an id the owner does not have, 409 for a
 * test session that another decision source decides. The status itself is the move's to check (409 naming it).
 */
export async function testSessionToDecide(
  db: DatabaseExecutor,
  owner: ApiKeyOwner,
  sessionId: string,
  input: TestDecisionInput,
): Promise<void> {
  if (owner.environment !== 'test') throw forbidden(LIVE_TEST_DECISION);
  checkDecisionInput(input);
  const session = await readOwnerSession(db, owner, sessionId);
  if (session.decisionSource !== 'sandbox') {
    throw conflict(
      `This test session is decided by ${session.decisionSource}, not by test decisions (VERIFICATION_DECISIONS)`,
    );
  }
}

/**
 * Moves the owner's test session to the decision's status in `work`, its consequences written at the unit's commit.
 * Of two decisions at once exactly one moves the session; the other gets the 409 of the status it lost to.
 */
export function decideTestSession(
  work: UnitOfWork,
  owner: ApiKeyOwner,
  request: { sessionId: string; input: TestDecisionInput; actor: string; now: Date },
  lifecycle: LifecycleOptions,
): Promise<MoveResult> {
  const { sessionId, input, actor, now } = request;
  return moveSession(
    work,
    {
      sessionId,
      to: input.status,
      actor,
      reason: input.reason ?? null,
      resubmitDocuments: input.resubmitDocuments,
      now,
      owner,
    },
    lifecycle,
  );
}

/**
 * The test values (docs/decisions.md#test-values): national ID numbers that decide a test session the sandbox
 * decides as soon as it is submitted with one, by whatever path (the API's submit, the hosted page). No real Kenyan ID
 * card number has seven leading zeros. `review` leaves the session in `processing`, where a person decides it (the
 * sandbox buttons, or a test decision), as a live session waits for a reviewer.
 */
const TEST_ID_NUMBERS = {
  '00000001': 'verified',
  '00000002': 'rejected',
  '00000003': 'requires_input',
  '00000004': 'review',
} as const;

/** The reason each test value's decision gives: what a live decision of the same kind would say to the person. */
const testValueMoves = {
  verified: { to: 'verified', reason: null },
  rejected: { to: 'rejected', reason: 'The ID document could not be verified (test value 00000002)' },
  requires_input: {
    to: 'requires_input',
    reason: 'The selfie does not match the ID document: take it again (test value 00000003)',
    resubmitDocuments: ['selfie'],
  },
} as const;

/**
 * The move that decides a just-submitted session when it is a test session the sandbox decides and was submitted with
 * the test ID number of a decision; undefined for any other session, number or `review`. A live session's number
 * never decides it.
 */
export function testValueMove(
  session: VerificationSession,
  details: { type: 'kyc'; idType: string; idNumber: string } | { type: 'kyb' },
  now: Date,
): MoveRequest | undefined {
  if (session.environment !== 'test' || session.decisionSource !== 'sandbox' || session.status !== 'processing') {
    return undefined;
  }
  if (details.type !== 'kyc' || details.idType !== 'national_id') return undefined;
  const value = TEST_ID_NUMBERS[details.idNumber as keyof typeof TEST_ID_NUMBERS];
  if (value === undefined || value === 'review') return undefined;
  const move = testValueMoves[value];
  return {
    sessionId: session.id,
    to: move.to,
    actor: 'test_value',
    reason: move.reason,
    resubmitDocuments: 'resubmitDocuments' in move ? move.resubmitDocuments : undefined,
    // A millisecond after the submission, so that every timeline (ordered by time) lists the decision after it.
    now: new Date(now.getTime() + 1),
  };
}
