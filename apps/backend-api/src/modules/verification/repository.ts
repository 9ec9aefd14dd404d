import type {
  ApiKeyEnvironment,
  ApiKeyOwner,
  DatabaseExecutor,
  UnitOfWork,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import {
  verificationPrices,
  verificationSessions,
  verificationSessionTransitions,
} from '@platform/db/schema/verification';
import { walletIdQuery } from '@platform/ledger';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { findSession, readSession, sessionsOwnedBy } from '@platform/verification-lifecycle';
import { and, asc, count, desc, eq, inArray, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';

// The queries of verification sessions, their transitions and prices. A query given an owner sees only the
// sessions of that organization and environment (docs/decisions.md#folders-per-environment).

// Outside a transaction one prepared read: customers poll GET /v1/verify/sessions/:id and the hosted page reads its
// session on every step. A prepared statement never runs in a transaction, which reads it plainly
// (docs/decisions.md#polled-reads-are-prepared-statements).
export function findSessionWithId(
  db: DatabaseExecutor,
  id: string,
  owner?: ApiKeyOwner,
): Promise<VerificationSession | undefined> {
  return db instanceof PgTransaction ? findSession(db, id, owner) : readSession(db, id, owner);
}

/** A new session's columns: all but its price and wallet. */
export type NewSessionRow = Omit<
  VerificationSession,
  | 'price'
  | 'walletId'
  | 'lastError'
  | 'lastErrorCode'
  | 'submittedDetails'
  | 'hostedPageDraft'
  | 'resubmitDocuments'
  | 'submittedAt'
  | 'personalDataErasedAt'
  | 'completedAt'
  | 'verifiedOutputs'
  | 'idNumberDigest'
  | 'decisionPolicy'
>;

/**
 * The price of a session of `type` for the organization: its own for the type, else `defaultPrice` (an expression).
 */
function sessionPrice(organizationId: string, type: VerificationType, defaultPrice: number): SQL {
  return sql`coalesce(
      (select ${verificationPrices.price} from ${verificationPrices}
        where ${verificationPrices.organizationId} = ${organizationId}::uuid and ${verificationPrices.type} = ${type}::text),
      ${defaultPrice}::bigint
    )`;
}

/**
 * The price of the new session (the organization's own for its type, else `defaultPrice`) and whether the owner's
 * wallet exists, read at once in the unit's transaction (docs/decisions.md#a-create-in-one-statement).
 */
export async function findPriceAndWallet(
  work: UnitOfWork,
  session: NewSessionRow,
  defaultPrice: number,
): Promise<{ price: number; walletFound: boolean }> {
  const [row] = await work.query(
    sql`select ${sessionPrice(session.organizationId, session.type, defaultPrice)} as price,
      ${walletIdQuery(session)} as wallet_id`,
  );
  if (row === undefined) throw new Error('Reading the price of a verification session returned no row');
  return { price: Number(row['price']), walletFound: typeof row['wallet_id'] === 'string' };
}

/**
 * Adds to the unit the condition that `price` is still the organization's price for the session's type: a unit
 * that commits without a transaction writes nothing otherwise, and runs again in one
 * (docs/decisions.md#a-create-in-one-statement).
 */
export function addPriceCheck(
  work: UnitOfWork,
  session: NewSessionRow,
  { price, defaultPrice }: { price: number; defaultPrice: number },
): void {
  work.add({
    parts: [
      [
        'price_in_force',
        sql`select 1 as in_force where ${sessionPrice(session.organizationId, session.type, defaultPrice)} = ${price}::bigint`,
      ],
    ],
    required: { part: 'price_in_force' },
  });
}

/**
 * Adds the insert of the session at `price` to the unit, on the owner's wallet of its environment (found by the
 * statement, not locked): required, so the unit writes nothing without a wallet.
 */
export function addSession(work: UnitOfWork, session: NewSessionRow, price: number): void {
  work.write(
    sql`insert into ${verificationSessions} (id, organization_id, environment, api_key_id, wallet_id, type, status,
      external_end_user_id, app_name, callback_url, locale, return_url, privacy_notice_url, decision_source, price,
      required_documents, parent_session_id, expires_at, created_at, updated_at)
    select ${session.id}::uuid, ${session.organizationId}::uuid, ${session.environment}::text,
      ${session.apiKeyId}::uuid, wallet.id, ${session.type}::text, ${session.status}::text,
      ${session.externalEndUserId}::text, ${session.appName}::text, ${session.callbackUrl}::text,
      ${session.locale}::text, ${session.returnUrl}::text, ${session.privacyNoticeUrl}::text,
      ${session.decisionSource}::text, ${price}::bigint, ${JSON.stringify(session.requiredDocuments)}::jsonb,
      ${session.parentSessionId}::uuid, ${session.expiresAt.toISOString()}::timestamptz, ${session.createdAt.toISOString()}::timestamptz,
      ${session.updatedAt.toISOString()}::timestamptz
    from (select ${walletIdQuery(session)} as id) as wallet
    where wallet.id is not null
    returning id`,
    { required: () => new Error('The verification session was not inserted: its wallet is missing') },
  );
}

export interface SessionListQuery {
  status: VerificationStatus | undefined;
  externalEndUserId: string | undefined;
  /** Only the sessions after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/** Up to `limit` of the owner's sessions newest first, each with its position for the next page's cursor. */
export function listSessionRows(
  db: DatabaseExecutor,
  owner: ApiKeyOwner,
  { status, externalEndUserId, after, limit }: SessionListQuery,
): Promise<Array<{ session: VerificationSession; position: string }>> {
  const conditions: Array<SQL | undefined> = [sessionsOwnedBy(owner)];
  if (status !== undefined) conditions.push(eq(verificationSessions.status, status));
  if (externalEndUserId !== undefined) conditions.push(eq(verificationSessions.externalEndUserId, externalEndUserId));
  if (after !== undefined) conditions.push(afterPosition(verificationSessions, after));
  return db
    .select({ session: verificationSessions, position: cursorTimeOf(verificationSessions.createdAt) })
    .from(verificationSessions)
    .where(and(...conditions))
    .orderBy(desc(verificationSessions.createdAt), desc(verificationSessions.id))
    .limit(limit);
}

/**
 * Locks the session in one of `statuses` that has been due longest at `now`, passing over the ids in `skip` and
 * the sessions other transactions hold (FOR UPDATE SKIP LOCKED); its id, or undefined when none is left.
 */
export async function claimDueSession(
  tx: DatabaseExecutor,
  { statuses, now, skip }: { statuses: readonly VerificationStatus[]; now: Date; skip: ReadonlySet<string> },
): Promise<string | undefined> {
  const [due] = await tx
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(
      and(
        inArray(verificationSessions.status, [...statuses]),
        lte(verificationSessions.expiresAt, now),
        skip.size > 0 ? notInArray(verificationSessions.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(verificationSessions.expiresAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return due?.id;
}

/** The number of sessions of each environment, type and status (groups without a session are left out). */
export function countSessionsByStatus(
  db: DatabaseExecutor,
): Promise<
  Array<{ environment: ApiKeyEnvironment; type: VerificationType; status: VerificationStatus; sessions: number }>
> {
  return db
    .select({
      environment: verificationSessions.environment,
      type: verificationSessions.type,
      status: verificationSessions.status,
      sessions: count(),
    })
    .from(verificationSessions)
    .groupBy(verificationSessions.environment, verificationSessions.type, verificationSessions.status);
}

/**
 * The review queue of each environment and type: sessions in `processing` that a person decides, and when the one
 * waiting longest was submitted (its move to `processing` when it has no submitted_at), in epoch seconds.
 */
export function reviewQueueByType(
  db: DatabaseExecutor,
): Promise<
  Array<{ environment: ApiKeyEnvironment; type: VerificationType; depth: number; oldestSince: number | null }>
> {
  const movedToProcessing = sql`(select max(${verificationSessionTransitions.createdAt}) from ${verificationSessionTransitions}
    where ${verificationSessionTransitions.sessionId} = ${verificationSessions.id}
    and ${verificationSessionTransitions.toStatus} = 'processing')`;
  return db
    .select({
      environment: verificationSessions.environment,
      type: verificationSessions.type,
      depth: count(),
      oldestSince: sql<
        number | null
      >`extract(epoch from min(coalesce(${verificationSessions.submittedAt}, ${movedToProcessing})))`.mapWith(Number),
    })
    .from(verificationSessions)
    .where(and(eq(verificationSessions.status, 'processing'), eq(verificationSessions.decisionSource, 'manual')))
    .groupBy(verificationSessions.environment, verificationSessions.type);
}

/** The directors' own sessions of a kyb session (docs/decisions.md#directors), in the order they were made. */
export function listDirectorSessions(db: DatabaseExecutor, parentSessionId: string): Promise<VerificationSession[]> {
  return db
    .select()
    .from(verificationSessions)
    .where(eq(verificationSessions.parentSessionId, parentSessionId))
    .orderBy(asc(verificationSessions.externalEndUserId));
}
