import {
  type ApiKeyEnvironment,
  columnsOf,
  type Database,
  type DatabaseExecutor,
  type DecisionSourceKind,
  preparedPerDatabase,
  type SessionErrorCode,
  tableRowOf,
  type UnitOfWork,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { verificationSessions, verificationSessionTransitions } from '@platform/db/schema/verification';
import { and, eq, isNull, max, ne, or, sql } from 'drizzle-orm';

// The queries the lifecycle runs. A query given an owner sees only the sessions of that organization and
// environment (docs/decisions.md#folders-per-environment); an owner without an environment, main-api's members, sees
// the organization's sessions of both.

/**
 * Whose sessions a query sees: an API key's (its organization and environment), or, without an environment, every
 * session of the organization (main-api's members: docs/decisions.md#organization-session-list).
 */
export interface SessionOwner {
  organizationId: string;
  environment?: ApiKeyEnvironment | undefined;
}

/** The condition that a session is the owner's (its organization, and environment when given); none without one. */
export const sessionsOwnedBy = (owner: SessionOwner | undefined) =>
  owner &&
  and(
    eq(verificationSessions.organizationId, owner.organizationId),
    owner.environment === undefined ? undefined : eq(verificationSessions.environment, owner.environment),
  );

/** The session with this id; with an owner, only if it is the owner's. */
export async function findSession(
  db: DatabaseExecutor,
  id: string,
  owner?: SessionOwner,
): Promise<VerificationSession | undefined> {
  const [session] = await db
    .select()
    .from(verificationSessions)
    .where(and(eq(verificationSessions.id, id), sessionsOwnedBy(owner)));
  return session;
}

// Every poll of a session (GET /v1/verify/sessions/:id) and every step of the hosted page read it: prepared once per
// database, they are parsed once per connection instead of on each request. A prepared statement runs on the
// database itself, never in a transaction: code inside one uses findSession
// (docs/decisions.md#polled-reads-are-prepared-statements).
const sessionOfOwner = preparedPerDatabase((db) =>
  db
    .select()
    .from(verificationSessions)
    .where(
      and(
        eq(verificationSessions.id, sql.placeholder('id')),
        eq(verificationSessions.organizationId, sql.placeholder('organizationId')),
        eq(verificationSessions.environment, sql.placeholder('environment')),
      ),
    )
    .prepare('lifecycle_session_of_owner'),
);
const sessionOfOrganization = preparedPerDatabase((db) =>
  db
    .select()
    .from(verificationSessions)
    .where(
      and(
        eq(verificationSessions.id, sql.placeholder('id')),
        eq(verificationSessions.organizationId, sql.placeholder('organizationId')),
      ),
    )
    .prepare('lifecycle_session_of_organization'),
);
const sessionWithId = preparedPerDatabase((db) =>
  db
    .select()
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sql.placeholder('id')))
    .prepare('lifecycle_session_with_id'),
);

/** findSession outside any transaction, as a prepared statement. */
export async function readSession(
  db: Database,
  id: string,
  owner?: SessionOwner,
): Promise<VerificationSession | undefined> {
  const [session] =
    owner === undefined
      ? await sessionWithId(db).execute({ id })
      : owner.environment === undefined
        ? await sessionOfOrganization(db).execute({ id, organizationId: owner.organizationId })
        : await sessionOfOwner(db).execute({
            id,
            organizationId: owner.organizationId,
            environment: owner.environment,
          });
  return session;
}

/** What moveSessionStatement found and did. */
export interface StatusChange {
  /**
   * The session's status and type as the statement's snapshot saw them; undefined when there is no such session (or
   * owner). When the move was refused although this status allows it, another move committed while it waited.
   */
  current: { status: VerificationStatus; type: VerificationType } | undefined;
  /** The session after the move; undefined when it was not moved. */
  moved: VerificationSession | undefined;
  /** With `decisionTiming`: when the session last moved to processing (not counting hand-overs), if ever. */
  movedToProcessingAt: Date | undefined;
}

/**
 * Moves the session to `change.status` in one statement, sent at once in the unit of work's transaction
 * (docs/decisions.md#statements-per-request): an UPDATE that
 * moves it only while its status is one of `from` and, when `types` is given, its type one of them. The UPDATE locks
 * the row: a racing move waits for it, then checks its WHERE on the row this one left, so of two racing moves exactly
 * one wins. No CTE locks the row first (a statement that locks a row and then updates it can deadlock with another
 * transaction queued for it). The answer says what the snapshot saw either way, so the caller can tell an unknown
 * session from a move its status or type does not allow.
 */
export async function moveSessionStatement(
  work: UnitOfWork,
  target: { sessionId: string; owner: SessionOwner | undefined },
  change: Pick<VerificationSession, 'status' | 'resubmitDocuments' | 'updatedAt' | 'completedAt'> & {
    /** The new lastError; undefined keeps the session's. */
    lastError: string | null | undefined;
    /** The new lastErrorCode; undefined keeps the session's. */
    lastErrorCode: SessionErrorCode | null | undefined;
    /** The sealed verified data a verified decision stores (docs/decisions.md#verified-data); undefined keeps it. */
    verifiedOutputs: Uint8Array | undefined;
    from: readonly VerificationStatus[];
    types: readonly VerificationType[] | undefined;
    /** Also read when the session last moved to processing (for a decision's waiting time). */
    decisionTiming: boolean;
  },
): Promise<StatusChange> {
  const session = sql`id = ${target.sessionId}::uuid${
    target.owner === undefined
      ? sql``
      : sql` and organization_id = ${target.owner.organizationId}::uuid${
          target.owner.environment === undefined ? sql`` : sql` and environment = ${target.owner.environment}::text`
        }`
  }`;
  const textList = (values: readonly string[]) =>
    values.length === 0
      ? sql`(null)`
      : sql`(${sql.join(
          values.map((value) => sql`${value}::text`),
          sql`, `,
        )})`;
  const movedToProcessing = change.decisionTiming
    ? sql`(select max(created_at) from ${verificationSessionTransitions}
        where session_id = ${target.sessionId}::uuid and to_status = 'processing'
          and (from_status is null or from_status <> to_status))`
    : sql`null::timestamptz`;
  const [row] = await work.query(
    sql`with moved as (
        update ${verificationSessions} set
          status = ${change.status}::text,
          ${change.lastError === undefined ? sql`` : sql`last_error = ${change.lastError}::text,`}
          ${change.lastErrorCode === undefined ? sql`` : sql`last_error_code = ${change.lastErrorCode}::text,`}
          ${change.verifiedOutputs === undefined ? sql`` : sql`verified_outputs = ${Buffer.from(change.verifiedOutputs)}::bytea,`}
          resubmit_documents = ${change.resubmitDocuments === null ? null : JSON.stringify(change.resubmitDocuments)}::jsonb,
          updated_at = ${change.updatedAt.toISOString()}::timestamptz,
          completed_at = ${change.completedAt?.toISOString() ?? null}::timestamptz
        where ${session} and status in ${textList(change.from)}
          ${change.types === undefined ? sql`` : sql`and type in ${textList(change.types)}`}
        returning *
      ),
      seen as (select status, type from ${verificationSessions} where ${session})
    select ${columnsOf(verificationSessions, 'moved')}, seen.status as current_status, seen.type as current_type,
      ${movedToProcessing} as moved_to_processing_at
    from seen left join moved on true`,
  );
  const movedAt = row?.['moved_to_processing_at'];
  return {
    current:
      row === undefined
        ? undefined
        : { status: row['current_status'] as VerificationStatus, type: row['current_type'] as VerificationType },
    moved: row?.['id'] === null || row === undefined ? undefined : tableRowOf(verificationSessions, row),
    movedToProcessingAt:
      movedAt === null || movedAt === undefined
        ? undefined
        : (verificationSessionTransitions.createdAt.mapFromDriverValue(movedAt as string) as Date),
  };
}

/** Adds the insert of a transition to the unit of work, sent at its commit. */
export function addTransition(
  work: UnitOfWork,
  transition: Pick<
    typeof verificationSessionTransitions.$inferSelect,
    'sessionId' | 'fromStatus' | 'toStatus' | 'actor' | 'reason' | 'createdAt'
  >,
): void {
  work.write(sql`insert into ${verificationSessionTransitions} (session_id, from_status, to_status, actor, reason, created_at)
    values (${transition.sessionId}::uuid, ${transition.fromStatus}::text, ${transition.toStatus}::text,
      ${transition.actor}::text, ${transition.reason}::text, ${transition.createdAt.toISOString()}::timestamptz)
    returning id`);
}

export async function insertTransition(
  tx: DatabaseExecutor,
  transition: typeof verificationSessionTransitions.$inferInsert,
): Promise<void> {
  await tx.insert(verificationSessionTransitions).values(transition);
}

/**
 * When the session last moved to `status`, from its transitions; undefined if it never did. A hand-over to another
 * decision source (a transition from a status to the same status) is not a move.
 */
export async function lastMovedTo(
  db: DatabaseExecutor,
  sessionId: string,
  status: VerificationStatus,
): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: max(verificationSessionTransitions.createdAt) })
    .from(verificationSessionTransitions)
    .where(
      and(
        eq(verificationSessionTransitions.sessionId, sessionId),
        eq(verificationSessionTransitions.toStatus, status),
        or(
          isNull(verificationSessionTransitions.fromStatus),
          ne(verificationSessionTransitions.fromStatus, verificationSessionTransitions.toStatus),
        ),
      ),
    );
  return row?.at ?? undefined;
}

/**
 * Gives a session waiting in `processing` from decision source `from` to `to`; undefined when it is no longer
 * processing or no longer decided by `from` (another instance, a result, got there first).
 */
export async function updateDecisionSource(
  tx: DatabaseExecutor,
  id: string,
  change: { from: DecisionSourceKind; to: DecisionSourceKind; now: Date },
): Promise<VerificationSession | undefined> {
  const [handed] = await tx
    .update(verificationSessions)
    .set({ decisionSource: change.to, updatedAt: change.now })
    .where(
      and(
        eq(verificationSessions.id, id),
        eq(verificationSessions.status, 'processing'),
        eq(verificationSessions.decisionSource, change.from),
      ),
    )
    .returning();
  return handed;
}

/** Inserts a session the platform itself creates (main-api's activation sessions); the row as stored. */
export async function insertPlatformSession(
  tx: DatabaseExecutor,
  row: typeof verificationSessions.$inferInsert,
): Promise<VerificationSession> {
  const [session] = await tx.insert(verificationSessions).values(row).returning();
  if (session === undefined) throw new Error('Inserting the verification session returned no row');
  return session;
}
