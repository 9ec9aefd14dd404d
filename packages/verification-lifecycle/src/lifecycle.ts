import {
  type ApiKeyEnvironment,
  type ApiKeyOwner,
  type Database,
  type DecisionSourceKind,
  type DocumentKind,
  documentKindsOf,
  type KycStatus,
  type Transaction,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { conflict, notFound, validationError } from '@platform/errors';
import { captureHold, releaseHold } from '@platform/ledger';
import { notifyOrganizationMembers } from '@platform/notifications';
import { recordSessionEvent } from './events.js';
import {
  findSession,
  insertTransition,
  lastMovedTo,
  setUserKycStatus,
  updateDecisionSource,
  updateSessionStatus,
} from './repository.js';

// The one place a verification session changes status (docs/decisions.md#session-lifecycle). Every move, whoever
// asks for it (the API, the hosted page, the expiry job, a reviewer on main-api), runs here inside the caller's transaction and does all
// of its consequences there: the transition row, the outbox event, the hold's capture or release, the platform
// user's kycStatus and the members' notifications. They commit together with the status or not at all.

export const SESSION_NOT_FOUND = 'Verification session not found';

/** The statuses each status may move to. verified, rejected, expired and canceled are final. */
export const allowedMoves: Readonly<Record<VerificationStatus, readonly VerificationStatus[]>> = {
  pending: ['processing', 'expired', 'canceled'],
  processing: ['verified', 'rejected', 'requires_input'],
  requires_input: ['processing', 'expired', 'canceled'],
  verified: [],
  rejected: [],
  expired: [],
  canceled: [],
};

/** Statuses the expiry job looks for: nothing is being checked, so the end user has stopped. */
export const expirableStatuses = ['pending', 'requires_input'] as const satisfies readonly VerificationStatus[];

export function canMove(from: VerificationStatus, to: VerificationStatus): boolean {
  return allowedMoves[from].includes(to);
}

function isFinal(status: VerificationStatus): boolean {
  return allowedMoves[status].length === 0;
}

/** verified/rejected mean the check was done: the money is taken. expired/canceled give it back. */
const holdResolution: Partial<Record<VerificationStatus, 'capture' | 'release'>> = {
  verified: 'capture',
  rejected: 'capture',
  expired: 'release',
  canceled: 'release',
};

/** The kycStatus a platform user gets from their session's status; expired/canceled leave it as it is. */
const kycStatusFollowing: Partial<Record<VerificationStatus, KycStatus>> = {
  pending: 'pending',
  processing: 'pending',
  requires_input: 'pending',
  verified: 'verified',
  rejected: 'rejected',
};

/** Shown to the end user and sent in callbacks when a mover gives no reason. */
const defaultReasons: Record<'rejected' | 'requires_input', string> = {
  rejected: 'The documents could not be verified',
  requires_input: 'Please submit your documents again',
};

export interface LifecycleOptions {
  /**
   * The platform's own organization: its live kyc sessions whose externalEndUserId is a user id set that user's
   * kycStatus. Unset: no session touches users.
   */
  platformOrganizationId?: string | undefined;
  /**
   * Told of each decision once its transaction has committed (never for a move rolled back): `commitMove` calls
   * it; a caller running moveSession in a wider transaction passes the result's `decision` after its commit.
   */
  onDecided?: ((decision: SessionDecision) => void) | undefined;
}

/** A submitted session decided: it moved from `processing` to verified, rejected or requires_input. */
export interface SessionDecision {
  type: VerificationType;
  environment: ApiKeyEnvironment;
  outcome: 'verified' | 'rejected' | 'requires_input';
  source: DecisionSourceKind;
  /** From submitted_at (or the move to `processing` when it has none) to the decision. */
  waitedSeconds: number;
}

/**
 * The buckets of `verification_decision_duration_seconds`, the histogram both services fill from `onDecided`
 * (backend-api for the sandbox, main-api for reviewers), so their series aggregate: from seconds (a sandbox button)
 * to a week (a review queue left alone): 1 s to 1 min, then 5, 15 and 30 min, 1, 2, 4, 8 and 12 h, 1, 2, 4 and
 * 7 days (docs/decisions.md#metric-names-and-labels).
 */
export const DECISION_DURATION_BUCKETS = [
  1, 5, 15, 60, 300, 900, 1_800, 3_600, 7_200, 14_400, 28_800, 43_200, 86_400, 172_800, 345_600, 604_800,
] as const;

export interface MoveRequest {
  sessionId: string;
  to: VerificationStatus;
  /** Who moves it: `api_key:<id>`, `hosted_page`, `expiry_job`, `reviewer:<userId>`. */
  actor: string;
  /** Why (rejected, requires_input); becomes the session's lastError. */
  reason?: string | null;
  /**
   * With `requires_input`: the document kinds to send again (each a kind of the session's type), kept on the
   * session until its next submission. Empty or absent: any document may be sent again, none is required anew.
   */
  resubmitDocuments?: readonly DocumentKind[] | undefined;
  now: Date;
  /** Only a session of this organization and environment; any other is not found. */
  owner?: ApiKeyOwner;
}

export interface MoveResult {
  session: VerificationSession;
  previousStatus: VerificationStatus;
  /** Set when the move decided a submitted session. */
  decision?: SessionDecision;
}

/**
 * Moves a session to `to`, or throws 404 (unknown, or not the owner's) or 409 (not a legal move from its
 * current status). The update is conditional on the status just read, so of two racing moves exactly one
 * wins and the other gets the 409 from the status it lost to.
 */
export async function moveSession(
  tx: Transaction,
  request: MoveRequest,
  options: LifecycleOptions,
): Promise<MoveResult> {
  const { sessionId, to, now } = request;
  const current = await findSession(tx, sessionId, request.owner);
  if (current === undefined) throw notFound(SESSION_NOT_FOUND);
  if (!canMove(current.status, to)) throw illegalMove(current.status, to);

  const resubmitDocuments = to === 'requires_input' ? resubmissionOf(current, request.resubmitDocuments) : null;
  const lastError =
    to === 'rejected' || to === 'requires_input'
      ? request.reason?.trim() || defaultReasons[to]
      : to === 'processing'
        ? null
        : current.lastError;
  const moved = await updateSessionStatus(tx, sessionId, current.status, {
    status: to,
    lastError,
    resubmitDocuments,
    updatedAt: now,
    completedAt: isFinal(to) ? now : null,
  });
  if (moved === undefined) {
    // Another move committed in between; report the status it left.
    const latest = await findSession(tx, sessionId, request.owner);
    throw illegalMove(latest?.status ?? current.status, to);
  }

  await recordStatusChange(tx, moved, current.status, request.actor, request.reason ?? null, now, options);
  const decision = current.status === 'processing' ? await decisionOf(tx, moved, now) : undefined;
  return { session: moved, previousStatus: current.status, ...(decision === undefined ? {} : { decision }) };
}

/** The kinds a requires_input move asks for again, once each; 400 for a kind the session's type does not take. */
function resubmissionOf(
  session: VerificationSession,
  kinds: readonly DocumentKind[] | undefined,
): DocumentKind[] | null {
  if (kinds === undefined || kinds.length === 0) return null;
  const takes = documentKindsOf(session.type);
  const foreign = kinds.filter((kind) => !takes.includes(kind));
  if (foreign.length > 0) {
    throw validationError(`A ${session.type} session takes only ${takes.join(', ')}`, [
      { path: '/documents', message: `${foreign.join(', ')} is not a document of a ${session.type} session` },
    ]);
  }
  return [...new Set(kinds)];
}

/** moveSession in a transaction of its own; a decision is reported to `onDecided` after the commit. */
export async function commitMove(db: Database, request: MoveRequest, options: LifecycleOptions): Promise<MoveResult> {
  const result = await db.transaction((tx) => moveSession(tx, request, options));
  if (result.decision !== undefined) options.onDecided?.(result.decision);
  return result;
}

async function decisionOf(
  tx: Transaction,
  session: VerificationSession,
  now: Date,
): Promise<SessionDecision | undefined> {
  const outcome = session.status;
  if (outcome !== 'verified' && outcome !== 'rejected' && outcome !== 'requires_input') return undefined;
  const since = session.submittedAt ?? (await lastMovedTo(tx, session.id, 'processing')) ?? session.createdAt;
  return {
    type: session.type,
    environment: session.environment,
    outcome,
    source: session.decisionSource,
    waitedSeconds: Math.max(0, (now.getTime() - since.getTime()) / 1000),
  };
}

export interface HandOverRequest {
  sessionId: string;
  from: DecisionSourceKind;
  to: DecisionSourceKind;
  /** Who hands it over: `smile_id`, `smile_id_job`. */
  actor: string;
  /** Why, for the reviewer who takes it (never personal data or a provider's own words). */
  reason: string;
  now: Date;
}

/**
 * Gives a processing session to another decision source (an automated provider that did not answer in time, or
 * answered what cannot be mapped, hands it to a reviewer: docs/decisions.md#fallback-to-manual-review). The status
 * stays `processing`, so no callback is sent and no money moves; a transition from processing to processing with
 * the reason records it in the session's history. Returns the session, or undefined (nothing changed) when it is
 * no longer processing under `from`.
 */
export async function handOverSession(
  tx: Transaction,
  request: HandOverRequest,
): Promise<VerificationSession | undefined> {
  const handed = await updateDecisionSource(tx, request.sessionId, request);
  if (handed === undefined) return undefined;
  await insertTransition(tx, {
    sessionId: handed.id,
    fromStatus: 'processing',
    toStatus: 'processing',
    actor: request.actor,
    reason: request.reason,
    createdAt: request.now,
  });
  return handed;
}

/** Records a newly created (pending) session as its first transition, with its event and kycStatus. */
export async function recordSessionCreated(
  tx: Transaction,
  session: VerificationSession,
  actor: string,
  options: LifecycleOptions,
): Promise<void> {
  await recordStatusChange(tx, session, null, actor, null, session.createdAt, options);
}

async function recordStatusChange(
  tx: Transaction,
  session: VerificationSession,
  previousStatus: VerificationStatus | null,
  actor: string,
  reason: string | null,
  now: Date,
  options: LifecycleOptions,
): Promise<void> {
  await insertTransition(tx, {
    sessionId: session.id,
    fromStatus: previousStatus,
    toStatus: session.status,
    actor,
    reason,
    createdAt: now,
  });
  await resolveHold(tx, session);
  await recordSessionEvent(tx, session, previousStatus, now);
  await followKycStatus(tx, session, now, options);
  await notifyMembers(tx, session);
}

/**
 * The vault key a session's submitted details are sealed under: the session's own (`<type>/<id>/details`, under the
 * prefix its documents are stored under and erased with), so a sealed copy on another row does not open.
 */
export function submittedDetailsKey(session: Pick<VerificationSession, 'type' | 'id'>): string {
  return `${session.type}/${session.id}/details`;
}

export function holdReferenceOf(sessionId: string): string {
  return `verification_session:${sessionId}`;
}

async function resolveHold(tx: Transaction, session: VerificationSession): Promise<void> {
  const resolution = holdResolution[session.status];
  // A session priced at 0 KES never held anything.
  if (resolution === undefined || session.price === 0) return;
  const wallet = { organizationId: session.organizationId, environment: session.environment };
  const reference = holdReferenceOf(session.id);
  if (resolution === 'capture')
    await captureHold(tx, wallet, reference, `${session.type} verification ${session.status}`);
  else await releaseHold(tx, wallet, reference, `${session.type} verification ${session.status}`);
}

/**
 * docs/decisions.md#kycstatus-follows-live-sessions. Only live sessions count: a test key and the sandbox buttons
 * of the hosted page must never make a real user verified.
 */
async function followKycStatus(tx: Transaction, session: VerificationSession, now: Date, options: LifecycleOptions) {
  if (
    options.platformOrganizationId === undefined ||
    session.organizationId !== options.platformOrganizationId ||
    session.type !== 'kyc' ||
    session.environment !== 'live'
  ) {
    return;
  }
  const kycStatus = kycStatusFollowing[session.status];
  if (kycStatus === undefined) return;
  await setUserKycStatus(tx, session.externalEndUserId, kycStatus, now);
}

async function notifyMembers(tx: Transaction, session: VerificationSession): Promise<void> {
  if (session.status !== 'verified' && session.status !== 'rejected') return;
  const what = `The ${session.type.toUpperCase()} verification of "${session.externalEndUserId}" (${session.environment})`;
  await notifyOrganizationMembers(
    tx,
    session.organizationId,
    session.status === 'verified'
      ? { title: 'Verification completed', message: `${what} was verified.`, type: 'success' }
      : { title: 'Verification rejected', message: `${what} was rejected: ${session.lastError}`, type: 'error' },
  );
}

function illegalMove(from: VerificationStatus, to: VerificationStatus) {
  return conflict(`Cannot move a verification session from ${from} to ${to}`);
}
