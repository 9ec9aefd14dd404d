import { type Database, queryRows } from '@platform/db';
import { sql } from 'drizzle-orm';

/** A kyc session's price (the default): what each seeded session holds. */
const SEEDED_SESSION_PRICE_KES = 50;

/**
 * `count` live kyc sessions waiting for a reviewer, spread evenly over `organizationIds`, as backend-api leaves them
 * once submitted: status `processing`, decision source `manual`, their pending and processing transitions, and the
 * price held from the organization's live wallet (a hold movement with its two entries and balances after it, and
 * the wallet's cached balances moved by the same amounts). No documents or sealed details: a decision reads
 * neither. One statement per organization, so tens of thousands take seconds, not the minutes the ledger's
 * one-hold-at-a-time functions would (docs/decisions.md#bench-decision-row). The ids come back interleaved
 * (first organization, second, ...), so consecutive requests decide sessions of different organizations.
 */
export async function seedSessionsAwaitingReview(
  db: Database,
  organizationIds: readonly string[],
  count: number,
  now = new Date(),
): Promise<string[]> {
  const perOrganization = organizationIds.map(
    (_, index) => Math.floor(count / organizationIds.length) + (index < count % organizationIds.length ? 1 : 0),
  );
  const submittedAt = new Date(now.getTime() - 10 * 60_000).toISOString();
  const createdAt = new Date(now.getTime() - 20 * 60_000).toISOString();
  const expiresAt = new Date(Date.parse(createdAt) + 86_400_000).toISOString();
  const price = SEEDED_SESSION_PRICE_KES;
  const lists: string[][] = [];
  for (const [index, organizationId] of organizationIds.entries()) {
    const sessions = perOrganization[index]!;
    if (sessions === 0) {
      lists.push([]);
      continue;
    }
    const rows = await db.transaction((tx) =>
      queryRows<{ id: string }>(
        tx,
        sql`
        with wallet as (
          select id, available_balance, held_balance from wallets
          where organization_id = ${organizationId}::uuid and environment = 'live' for update
        ), fresh as (
          select gen_random_uuid() as id, n from generate_series(1, ${sessions}::int) as n
        ), holds as (
          insert into ledger_transactions (wallet_id, kind, amount, reference, description, available_after, held_after)
          select w.id, 'hold', ${price}::int, 'verification_session:' || f.id, 'kyc verification',
                 w.available_balance - ${price}::int * f.n, w.held_balance + ${price}::int * f.n
          from fresh f cross join wallet w
          returning id
        ), entries as (
          insert into ledger_entries (transaction_id, wallet_id, account, amount)
          select h.id, w.id, side.account, side.amount
          from holds h cross join wallet w
          cross join (values ('available', -${price}::int), ('held', ${price}::int)) as side (account, amount)
        ), sessions as (
          insert into verification_sessions (id, organization_id, environment, wallet_id, type, status,
            external_end_user_id, app_name, decision_source, price, required_documents, submitted_at, expires_at,
            created_at, updated_at)
          select f.id, ${organizationId}::uuid, 'live', w.id, 'kyc', 'processing', 'bench-end-user-' || f.n, 'Bench',
                 'manual', ${price}::int, '["national_id_or_passport", "selfie"]'::jsonb, ${submittedAt}::timestamptz,
                 ${expiresAt}::timestamptz, ${createdAt}::timestamptz, ${submittedAt}::timestamptz
          from fresh f cross join wallet w
        ), transitions as (
          insert into verification_session_transitions (session_id, from_status, to_status, actor, created_at)
          select f.id, step.from_status, step.to_status, 'api_key:bench', step.at
          from fresh f cross join (values
            (null::text, 'pending', ${createdAt}::timestamptz),
            ('pending', 'processing', ${submittedAt}::timestamptz)
          ) as step (from_status, to_status, at)
        ), balances as (
          update wallets
          set available_balance = available_balance - ${price * sessions}::bigint,
              held_balance = held_balance + ${price * sessions}::bigint,
              updated_at = ${now.toISOString()}::timestamptz
          where id = (select id from wallet)
        )
        select id::text as id from fresh order by n`,
      ),
    );
    if (rows.length !== sessions)
      throw new Error(`Seeding sessions for ${organizationId} returned ${rows.length} rows`);
    lists.push(rows.map((row) => row.id));
  }
  return interleave(lists);
}

/** The first of each list, then the second of each, and so on. */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const result: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let position = 0; position < longest; position += 1) {
    for (const list of lists) if (position < list.length) result.push(list[position]!);
  }
  return result;
}
