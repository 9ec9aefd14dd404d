import type { ApiKeyOwner, DatabaseExecutor, UnitOfWork } from '@platform/db';
import { conflict, forbidden, validationError } from '@platform/errors';
import { type LifecycleOptions, type MoveResult, moveSession } from '@platform/verification-lifecycle';
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
