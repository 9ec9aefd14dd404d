import {
  type ApiKeyEnvironment,
  type ApiKeyOwner,
  type DatabaseExecutor,
  queryRows,
  type RiderCondition,
  type RidingStatement,
  reportRiders,
  riderCounts,
  riderCtes,
  riderReference,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { verificationPrices, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, count, desc, eq, inArray, lte, notInArray, type SQL, sql } from 'drizzle-orm';

// The queries of verification sessions, their transitions and prices. A query given an owner sees only the
// sessions of that organization and environment (docs/decisions.md#folders-per-environment).

const ownedBy = (owner: ApiKeyOwner | undefined) =>
  owner &&
  and(
    eq(verificationSessions.organizationId, owner.organizationId),
    eq(verificationSessions.environment, owner.environment),
  );

/** A new session's columns: all but its price and wallet, which the insert finds. */
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
>;

/**
 * `insert into verification_sessions ... select <the session's columns> from <from>`, its wallet and price taken
 * from `walletId` and `price` (expressions over `from`); the caller adds its WHERE and RETURNING.
 */
function sessionInsert(session: NewSessionRow, source: { walletId: SQL; price: SQL; from: SQL }): SQL {
  return sql`insert into ${verificationSessions} (id, organization_id, environment, api_key_id, wallet_id, type, status,
      external_end_user_id, app_name, callback_url, locale, return_url, privacy_notice_url, decision_source, price,
      required_documents, expires_at, created_at, updated_at)
    select ${session.id}::uuid, ${session.organizationId}::uuid, ${session.environment}::text,
      ${session.apiKeyId}::uuid, ${source.walletId}, ${session.type}::text, ${session.status}::text,
      ${session.externalEndUserId}::text, ${session.appName}::text, ${session.callbackUrl}::text,
      ${session.locale}::text, ${session.returnUrl}::text, ${session.privacyNoticeUrl}::text,
      ${session.decisionSource}::text, ${source.price}, ${JSON.stringify(session.requiredDocuments)}::jsonb,
      ${session.expiresAt.toISOString()}::timestamptz, ${session.createdAt.toISOString()}::timestamptz,
      ${session.updatedAt.toISOString()}::timestamptz
    from ${source.from}`;
}

/**
 * Inserts a session in one statement (docs/decisions.md#statements-per-request) with its price (the organization's
 * own for the type, else `defaultPrice`) and its wallet (`walletId`, a subquery: none locked), and the `riders` built
 * for it, written only with the session: `ridersFor` is given the condition to put on them. No wallet yet: nothing is
 * written (`inserted` false), and the answer still carries the price.
 */
export async function insertPricedSession(
  tx: DatabaseExecutor,
  session: NewSessionRow,
  { defaultPrice, walletId }: { defaultPrice: number; walletId: SQL },
  ridersFor: (onlyIf: SQL) => readonly RidingStatement[],
): Promise<{ price: number; walletId: string | null; inserted: boolean }> {
  const riders = ridersFor(sql`exists (select 1 from inserted)`);
  const [row] = await queryRows(
    tx,
    sql`with ${sessionPriceCte(session.organizationId, session.type, defaultPrice)}
      wallet as (select ${walletId} as id),
      inserted as (
        ${sessionInsert(session, { walletId: sql`wallet.id`, price: sql`price.price`, from: sql`price, wallet` })}
        where wallet.id is not null
        returning id
      )${riderCtes(riders)}
    select price.price, wallet.id as wallet_id, (select count(*) from inserted)::int as inserted${riderCounts(riders)}
    from price, wallet`,
  );
  reportRiders(riders, row);
  if (row === undefined) throw new Error('Inserting the verification session returned no row');
  const walletIdFound = row['wallet_id'];
  return {
    price: Number(row['price']),
    walletId: typeof walletIdFound === 'string' ? walletIdFound : null,
    inserted: row['inserted'] === 1,
  };
}

/**
 * The statement's first CTE that finds the price of a session of `type` for the organization (its own, else
 * `defaultPrice`), as `price`, for a statement that holds it (docs/decisions.md#a-create-in-one-statement).
 */
function sessionPriceCte(organizationId: string, type: VerificationType, defaultPrice: number): SQL {
  return sql`price as (
      select coalesce(
        (select ${verificationPrices.price} from ${verificationPrices}
          where ${verificationPrices.organizationId} = ${organizationId}::uuid and ${verificationPrices.type} = ${type}::text),
        ${defaultPrice}::bigint
      ) as price
    ),`;
}

/**
 * The session's insert as a rider of the statement that holds its price: written only with the hold, on the wallet
 * the hold moved (`moved`).
 */
function sessionInsertRider(session: NewSessionRow, price: number): RidingStatement {
  return {
    statement: sql`${sessionInsert(session, { walletId: sql`moved.id`, price: sql`${price}::bigint`, from: sql`moved` })}
      returning id`,
  };
}

/**
 * What a create in one statement holds and writes besides the riders of others
 * (docs/decisions.md#a-create-in-one-statement): the price CTE, the condition that `price` is still the one in force,
 * the session's insert, which must be the carrying statement's first rider, and the condition of the riders written
 * only with the session.
 */
export function oneStatementSessionParts(session: NewSessionRow, price: number, defaultPrice: number) {
  return {
    leading: sessionPriceCte(session.organizationId, session.type, defaultPrice),
    onlyIf: sql`(select price from price) = ${price}::bigint`,
    sessionInsert: sessionInsertRider(session, price),
    withTheSession: sql`exists (select 1 from ${riderReference(0)})` as RiderCondition,
  };
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
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
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
