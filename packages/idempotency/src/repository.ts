import {
  columnsOf,
  type Database,
  type DatabaseExecutor,
  type IdempotencyRecord,
  queryRows,
  tableRowOf,
  type UnitOfWork,
} from '@platform/db';
import { idempotencyRecords } from '@platform/db/schema/idempotency';
import { and, eq, gt, lte, type SQL, sql } from 'drizzle-orm';

// Every statement on idempotency_records. The functions take the executor first.

/** Which request a record belongs to. */
export interface RecordKey {
  scope: string;
  key: string;
}

/** A request that owns its key: `lockedAt` is its claim, so a request that lost the key cannot touch it. */
export interface KeyClaim extends RecordKey {
  fingerprint: string;
  lockedAt: Date;
}

/** The answer kept for replays. */
export interface StoredResponse {
  statusCode: number;
  body: unknown;
  headers: Record<string, string>;
}

const byKey = ({ scope, key }: RecordKey) => and(eq(idempotencyRecords.scope, scope), eq(idempotencyRecords.key, key));

/**
 * Claims a key nobody holds. False when a record exists already (whatever its state). Sent by every request with a
 * key, so as a prepared statement (`queryRows`: one round trip, not parsed again).
 *
 * The claim commits without waiting for its WAL to reach the disk (`synchronous_commit` off for its own transaction
 * only: docs/decisions.md#an-idempotency-claim-commits-without-a-flush): it matters only while its request runs, and
 * whatever the request then commits flushes the WAL up to its own commit, the claim included. A crash before that
 * loses the claim and the request's work together, and the retry runs as the first. So the claim must be sent by
 * itself, never in a transaction (the setting would hold for the whole transaction): `db` is the database, not a
 * transaction.
 */
export async function insertClaim(db: Database, claim: KeyClaim, expiresAt: Date): Promise<boolean> {
  if ('rollback' in db) throw new Error('An idempotency claim is sent by itself, never inside a transaction');
  const lockedAt = claim.lockedAt.toISOString();
  const inserted = await queryRows(
    db,
    sql`insert into ${idempotencyRecords} (scope, key, fingerprint, status, locked_at, created_at, expires_at)
      select ${claim.scope}::text, ${claim.key}::text, ${claim.fingerprint}::text, 'in_progress',
        ${lockedAt}::timestamptz, ${lockedAt}::timestamptz, ${expiresAt.toISOString()}::timestamptz
      from (select set_config('synchronous_commit', 'off', true)) as without_flush
      on conflict do nothing
      returning key`,
  );
  return inserted.length > 0;
}

const recordColumns = columnsOf(idempotencyRecords, 'idempotency_records');

/**
 * The record of a key. Read by every replay, so as a prepared statement (`queryRows`): built through drizzle's
 * select builder it cost a replay more than its own statement (docs/benchmarks.md#the-replays-read-and-its-log-line-2-dec-evening).
 */
export async function findRecord(db: DatabaseExecutor, recordKey: RecordKey): Promise<IdempotencyRecord | undefined> {
  const [raw] = await queryRows(
    db,
    sql`select ${recordColumns} from idempotency_records
      where scope = ${recordKey.scope}::text and key = ${recordKey.key}::text`,
  );
  return raw === undefined ? undefined : tableRowOf(idempotencyRecords, raw);
}

/**
 * Reuses the record of a key whose 24 hours are over, as if it were absent. Conditional on the record
 * still being expired at `now`, so of two requests doing this at once only one wins.
 */
export async function takeOverExpired(db: DatabaseExecutor, claim: KeyClaim, expiresAt: Date): Promise<boolean> {
  const updated = await db
    .update(idempotencyRecords)
    .set({
      fingerprint: claim.fingerprint,
      status: 'in_progress',
      lockedAt: claim.lockedAt,
      createdAt: claim.lockedAt,
      expiresAt,
      responseStatus: null,
      responseBody: null,
      responseHeaders: null,
    })
    .where(and(byKey(claim), lte(idempotencyRecords.expiresAt, claim.lockedAt)))
    .returning({ key: idempotencyRecords.key });
  return updated.length > 0;
}

/**
 * Takes over a key whose owner stopped answering: still in progress, same request, and locked at or before
 * `staleBefore`. Conditional, so of two requests doing this at once only one wins; the old owner's
 * completion then matches nothing (its `lockedAt` is no longer the record's).
 */
export async function takeOverAbandoned(db: DatabaseExecutor, claim: KeyClaim, staleBefore: Date): Promise<boolean> {
  const updated = await db
    .update(idempotencyRecords)
    .set({ lockedAt: claim.lockedAt })
    .where(
      and(
        byKey(claim),
        eq(idempotencyRecords.status, 'in_progress'),
        eq(idempotencyRecords.fingerprint, claim.fingerprint),
        lte(idempotencyRecords.lockedAt, staleBefore),
        gt(idempotencyRecords.expiresAt, claim.lockedAt),
      ),
    )
    .returning({ key: idempotencyRecords.key });
  return updated.length > 0;
}

/** An answer to store, its body already written as JSON (null for none). */
export interface SerializedResponse {
  statusCode: number;
  bodyJson: string | null;
  headers: Record<string, string>;
}

/** The answer as completeRecord stores it. */
export function serializedResponse(response: StoredResponse): SerializedResponse {
  const { statusCode, body, headers } = response;
  return { statusCode, bodyJson: body === null || body === undefined ? null : JSON.stringify(body), headers };
}

/** Stores the answer of the claim's owner. False when the claim is no longer the owner's. */
export async function completeRecord(
  db: DatabaseExecutor,
  claim: KeyClaim,
  response: SerializedResponse,
): Promise<boolean> {
  const updated = await queryRows(db, completeRecordStatement(claim, response));
  return updated.length > 0;
}

/**
 * completeRecord in a unit of work (docs/decisions.md#a-unit-of-work): a write of the unit's commit statement, which
 * must store the answer; when the claim is no longer this request's, the unit fails with `takenOver()`.
 */
export function addStoredAnswer(
  work: UnitOfWork,
  claim: KeyClaim,
  response: SerializedResponse,
  takenOver: () => Error,
): void {
  work.write(completeRecordStatement(claim, response), { required: takenOver });
}

/** The update that stores the claim's answer: one row when it did, none when the claim is no longer its owner's. */
// A template, not drizzle's update builder: it is written in every create, and building it through the builder cost
// more than the rest of its statement's text (docs/benchmarks.md#statements-written-without-drizzles-walk-27-nov).
function completeRecordStatement(claim: KeyClaim, response: SerializedResponse): SQL {
  return sql`update ${idempotencyRecords}
    set status = 'completed', response_status = ${response.statusCode}::int,
      response_body = ${response.bodyJson}::jsonb, response_headers = ${JSON.stringify(response.headers)}::jsonb
    where ${ownedBy(claim)}
    returning key`;
}

/** Gives the key up (the request did not succeed), so a retry runs again. Only the owner's claim is removed. */
export async function releaseClaim(db: DatabaseExecutor, claim: KeyClaim): Promise<boolean> {
  const deleted = await db.delete(idempotencyRecords).where(ownedBy(claim)).returning({ key: idempotencyRecords.key });
  return deleted.length > 0;
}

function ownedBy(claim: KeyClaim) {
  return and(
    byKey(claim),
    eq(idempotencyRecords.status, 'in_progress'),
    eq(idempotencyRecords.lockedAt, claim.lockedAt),
  );
}

/**
 * Deletes up to `batchSize` records expired at `now` (oldest first), skipping rows another purge has locked;
 * how many it deleted.
 */
export async function deleteExpiredBatch(db: DatabaseExecutor, now: Date, batchSize: number): Promise<number> {
  const deleted = await queryRows(
    db,
    sql`delete from idempotency_records
          where (scope, key) in (
            select scope, key from idempotency_records
            where expires_at <= ${now.toISOString()}::timestamptz
            order by expires_at
            limit ${batchSize}
            for update skip locked)
          returning 1 as deleted`,
  );
  return deleted.length;
}
