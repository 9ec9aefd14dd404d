import { addKycStatus } from '@platform/accounts';
import {
  type ApiKeyEnvironment,
  type Database,
  type DecisionSourceKind,
  type DocumentKind,
  documentKindsOf,
  type KycStatus,
  type SessionErrorCode,
  type Transaction,
  type UnitOfWork,
  unitOfWork,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
  verificationStatuses,
  verificationTypes,
} from '@platform/db';
import { conflict, notFound, validationError } from '@platform/errors';
import { addCapture, addRelease } from '@platform/ledger';
import { addOrganizationMembersNotification } from '@platform/notifications';
import { activatesOrganization } from './activation.js';
import { addOrganizationActivation } from './activation-repository.js';
import { addSessionEvent, type SessionFacts } from './events.js';
import {
  addTransition,
  insertTransition,
  moveSessionStatement,
  type SessionOwner,
  updateDecisionSource,
} from './repository.js';

// The one place a verification session changes status (docs/decisions.md#session-lifecycle). Every move, whoever
// asks for it (the API, the hosted page, the expiry job, a reviewer on main-api), runs here in the caller's unit of
// work and adds all of its consequences to it: the transition row, the outbox event, the hold's capture or release,
// the platform user's kycStatus and the members' notifications. They commit together with the status or not at all.

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

/** The statuses a session ends in: nothing moves it on. */
export const finalStatuses: readonly VerificationStatus[] = ['verified', 'rejected', 'expired', 'canceled'];

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

/** lastError of a session the service ends for a reason of its own, when the mover gives no words of its own. */
const defaultCancelReasons: Record<SessionErrorCode, string> = {
  consent_declined: 'The person did not agree to the processing of their data',
};

export interface LifecycleOptions {
  /**
   * The platform's own organization: its live kyc sessions whose externalEndUserId is a user id set that user's
   * kycStatus, and its live kyb session that an organization started to go live activates it when verified.
   * Unset: no session touches users or organizations.
   */
  platformOrganizationId?: string | undefined;
  /**
   * Told of each decision once its transaction has committed (never for a move rolled back): `commitMove` calls
   * it; a caller running moveSession in a unit of its own passes the result's `decision` after its commit.
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
  /** Why (rejected, requires_input; canceled with `errorCode`); becomes the session's lastError. */
  reason?: string | null;
  /**
   * With `canceled`: the code of the service's own reason for ending the session (`consent_declined`), which becomes
   * its lastErrorCode, the reason its lastError (docs/decisions.md#declined-consent). Without it a cancel keeps
   * both as they were.
   */
  errorCode?: SessionErrorCode | undefined;
  /**
   * With `requires_input`: the document kinds to send again (each a kind of the session's type), kept on the
   * session until its next submission. Empty or absent: any document may be sent again, none is required anew.
   */
  resubmitDocuments?: readonly DocumentKind[] | undefined;
  /**
   * With `verified`: what the session verified, sealed (sealedVerifiedOutputs), stored by the move's own statement,
   * so only a decision that moves the session writes it.
   */
  verifiedOutputs?: Uint8Array | undefined;
  now: Date;
  /** Only a session of this organization (and environment, when given); any other is not found. */
  owner?: SessionOwner;
}

export interface MoveResult {
  session: VerificationSession;
  previousStatus: VerificationStatus;
  /** Set when the move decided a submitted session. */
  decision?: SessionDecision;
}

/**
 * Moves a session to `to`, or throws 404 (unknown, or not the owner's), 409 (not a legal move from its current
 * status) or 400 (a document to send again that the session's type does not take).
 *
 * The move is a statement sent at once (docs/decisions.md#statements-per-request), moving the session row while its
 * status allows (of two racing moves exactly one wins; the other waits for it, sends its move once more, and gets
 * the 409 from the status it lost to). Its consequences are added to `work` and written at its commit, in one
 * statement with the caller's own writes: the transition, the callback event, the kycStatus, the members'
 * notifications, and the hold's capture or release, which takes the wallet's lock as that statement begins.
 */
export async function moveSession(
  work: UnitOfWork,
  request: MoveRequest,
  options: LifecycleOptions,
): Promise<MoveResult> {
  const { sessionId, to, now } = request;
  const asked = to === 'requires_input' ? request.resubmitDocuments : undefined;
  const resubmitDocuments = asked === undefined || asked.length === 0 ? null : [...new Set(asked)];
  const lastError = lastErrorOf(request);
  const statement = () =>
    moveSessionStatement(
      work,
      { sessionId, owner: request.owner },
      {
        status: to,
        lastError,
        // Set and cleared with lastError: a code only for the service's own reasons.
        lastErrorCode: lastError === undefined ? undefined : to === 'canceled' ? (request.errorCode ?? null) : null,
        resubmitDocuments,
        verifiedOutputs: to === 'verified' ? request.verifiedOutputs : undefined,
        updatedAt: now,
        completedAt: isFinal(to) ? now : null,
        from: verificationStatuses.filter((from) => canMove(from, to)),
        // Only a type that takes every document asked for again.
        types:
          resubmitDocuments === null
            ? undefined
            : verificationTypes.filter((type) =>
                resubmitDocuments.every((kind) => documentKindsOf(type).includes(kind)),
              ),
        decisionTiming: decisionOutcomes.has(to),
      },
    );
  let change = await statement();
  for (let attempt = 1; change.moved === undefined; attempt += 1) {
    const { current } = change;
    if (current === undefined) throw notFound(SESSION_NOT_FOUND);
    if (!canMove(current.status, to)) throw illegalMove(current.status, to);
    checkResubmission(current.type, resubmitDocuments ?? []);
    // The snapshot allowed the move, so another move committed while this one waited for the row: the next statement
    // sees it, and answers from it (a 409 from the status it left, or, rarely, a move that is allowed again).
    if (attempt > MOVE_ATTEMPTS) throw new Error(`The move of session ${sessionId} to ${to} kept losing races`);
    change = await statement();
  }
  const { current, moved } = change;
  if (current === undefined) throw new Error(`The moved session ${sessionId} was not seen`);

  addStatusChange(
    work,
    { session: moved, previousStatus: current.status, actor: request.actor, reason: request.reason ?? null, now },
    options,
  );
  const decision = current.status === 'processing' ? decisionOf(moved, now, change.movedToProcessingAt) : undefined;
  return { session: moved, previousStatus: current.status, ...(decision === undefined ? {} : { decision }) };
}

/** The session's new lastError: the reason of a decision against it, none once resubmitted, or undefined to keep it. */
function lastErrorOf({ to, reason, errorCode }: MoveRequest): string | null | undefined {
  if (to === 'rejected' || to === 'requires_input') return reason?.trim() || defaultReasons[to];
  if (to === 'processing') return null;
  if (to === 'canceled' && errorCode !== undefined) return reason?.trim() || defaultCancelReasons[errorCode];
  return undefined;
}

/** 400 when a session of `type` does not take one of `kinds`. */
function checkResubmission(type: VerificationType, kinds: readonly DocumentKind[]): void {
  const takes = documentKindsOf(type);
  const foreign = kinds.filter((kind) => !takes.includes(kind));
  if (foreign.length > 0) {
    throw validationError(`A ${type} session takes only ${takes.join(', ')}`, [
      { path: '/documents', message: `${foreign.join(', ')} is not a document of a ${type} session` },
    ]);
  }
}

/** moveSession in a unit of work of its own; a decision is reported to `onDecided` after the commit. */
export async function commitMove(db: Database, request: MoveRequest, options: LifecycleOptions): Promise<MoveResult> {
  const result = await unitOfWork(db, (work) => moveSession(work, request, options));
  if (result.decision !== undefined) options.onDecided?.(result.decision);
  return result;
}

/** How many times a move refused by a race is tried again (each sees the winner). */
const MOVE_ATTEMPTS = 3;

const decisionOutcomes = new Set<VerificationStatus>(['verified', 'rejected', 'requires_input']);

function decisionOf(
  session: VerificationSession,
  now: Date,
  movedToProcessingAt: Date | undefined,
): SessionDecision | undefined {
  const outcome = session.status;
  if (outcome !== 'verified' && outcome !== 'rejected' && outcome !== 'requires_input') return undefined;
  const since = session.submittedAt ?? movedToProcessingAt ?? session.createdAt;
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

/**
 * Adds to the unit of work what records a newly created (pending) session, which the unit writes with it: its first
 * transition, its created event and the kycStatus.
 */
export function addSessionCreated(
  work: UnitOfWork,
  session: SessionFacts & Pick<VerificationSession, 'createdAt' | 'price'>,
  actor: string,
  options: LifecycleOptions,
): void {
  addStatusChange(work, { session, previousStatus: null, actor, reason: null, now: session.createdAt }, options);
}

interface StatusChange {
  session: SessionFacts & Pick<VerificationSession, 'price'>;
  previousStatus: VerificationStatus | null;
  actor: string;
  reason: string | null;
  now: Date;
}

/**
 * Adds the consequences of a status change to the unit of work: transition, event, kycStatus, notifications, and,
 * when the change ends the session, the hold's capture or release.
 */
function addStatusChange(work: UnitOfWork, change: StatusChange, options: LifecycleOptions): void {
  const { session, previousStatus, actor, reason, now } = change;
  addTransition(work, {
    sessionId: session.id,
    fromStatus: previousStatus,
    toStatus: session.status,
    actor,
    reason,
    createdAt: now,
  });
  addSessionEvent(work, session, previousStatus, now);
  const kycStatus = followedKycStatus(session, options);
  if (kycStatus !== undefined) addKycStatus(work, session.externalEndUserId, kycStatus, now);
  const notification = memberNotificationOf(session);
  if (notification !== undefined) addOrganizationMembersNotification(work, session.organizationId, notification);
  // The platform's KYB session of an organization, verified, activates it (docs/decisions.md#going-live).
  if (activatesOrganization(session, options.platformOrganizationId))
    addOrganizationActivation(work, { sessionId: session.id }, { now, actor });
  const resolution = holdResolution[session.status];
  // A session priced at 0 KES never held anything.
  if (resolution === undefined || session.price === 0) return;
  const wallet = { organizationId: session.organizationId, environment: session.environment };
  const reference = holdReferenceOf(session.id);
  const description = `${session.type} verification ${session.status}`;
  if (resolution === 'capture') addCapture(work, wallet, reference, description);
  else addRelease(work, wallet, reference, description);
}

/**
 * The vault key a session's submitted details are sealed under: the session's own (`<type>/<id>/details`, under the
 * prefix its documents are stored under and erased with), so a sealed copy on another row does not open.
 */
export function submittedDetailsKey(session: Pick<VerificationSession, 'type' | 'id'>): string {
  return `${session.type}/${session.id}/details`;
}

/**
 * The vault key a check's evidence is sealed under (docs/decisions.md#verification-checks): bound to the session and
 * the check, so neither can be moved to another. backend-api seals it; main-api's reviewers open it.
 */
export function checkEvidenceKey(session: Pick<VerificationSession, 'type' | 'id'>, checkId: string): string {
  return `${session.type}/${session.id}/checks/${checkId}`;
}

/** The vault key a session's verified data is sealed under (docs/decisions.md#verified-data). */
export function verifiedOutputsKey(session: Pick<VerificationSession, 'type' | 'id'>): string {
  return `${session.type}/${session.id}/verified`;
}

export function holdReferenceOf(sessionId: string): string {
  return `verification_session:${sessionId}`;
}

/**
 * The kycStatus the session gives its platform user (docs/decisions.md#kycstatus-follows-live-sessions), if any. Only
 * live sessions count: a test key and the sandbox buttons of the hosted page must never make a real user verified.
 */
function followedKycStatus(session: SessionFacts, options: LifecycleOptions): KycStatus | undefined {
  if (
    options.platformOrganizationId === undefined ||
    session.organizationId !== options.platformOrganizationId ||
    session.type !== 'kyc' ||
    session.environment !== 'live'
  ) {
    return undefined;
  }
  return kycStatusFollowing[session.status];
}

/** What the members are told of a verified or rejected session. */
function memberNotificationOf(session: SessionFacts) {
  if (session.status !== 'verified' && session.status !== 'rejected') return undefined;
  const what = `The ${session.type.toUpperCase()} verification of "${session.externalEndUserId}" (${session.environment})`;
  // The dashboard's Verifications list of that end user (docs/decisions.md#dashboard-pages): every member is told,
  // and a session's own page is named by its id, the hosted page's credential, which not every role may read.
  const actionUrl = `/dashboard/verifications?${new URLSearchParams({
    type: session.type,
    externalEndUserId: session.externalEndUserId,
    env: session.environment,
  })}`;
  return session.status === 'verified'
    ? { title: 'Verification completed', message: `${what} was verified.`, type: 'success' as const, actionUrl }
    : {
        title: 'Verification rejected',
        message: `${what} was rejected: ${session.lastError}`,
        type: 'error' as const,
        actionUrl,
      };
}

function illegalMove(from: VerificationStatus, to: VerificationStatus) {
  return conflict(`Cannot move a verification session from ${from} to ${to}`);
}
