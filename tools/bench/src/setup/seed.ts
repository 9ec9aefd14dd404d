import { createApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { mailSubscriptions, organizations } from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { sql } from 'drizzle-orm';

/** What the bench calls the services with. */
export interface BenchFixture {
  organizationId: string;
  /** The user the bearer-token endpoints act as: a member of the organization with its share of notifications. */
  userId: string;
  /** Live API keys with a raised rate limit: one per backend endpoint, so no endpoint shares another's budget. */
  apiKeys: { sessions: string; sessionReplay: string; folders: string; reads: string };
  apiKeyIds: string[];
}

const SEEDED_USERS = 1_000;
const SEEDED_NOTIFICATIONS = 10_000;
/** The measured user's share: enough for a full page of 50 and an unread count over more than the page. */
const MEASURED_USER_NOTIFICATIONS = 100;
/** Far above what a run spends: sessions hold 50 KES each. */
const WALLET_BALANCE_KES = 1_000_000_000;
const API_KEY_RATE_LIMIT_PER_MINUTE = 100_000_000;

/**
 * One organization with 1,000 member users and 10,000 notifications among them (bulk inserted in SQL), a
 * live wallet with a large balance, a scale mail subscription and fresh live API keys. `runId` keeps the
 * user ids (and so the Redis rate-limit keys) of this run apart from any other.
 */
export async function seedBenchData(db: Database, runId: string, now = new Date()): Promise<BenchFixture> {
  const [organization] = await db
    .insert(organizations)
    .values({ name: `Bench ${runId}` })
    .returning({ id: organizations.id });
  if (organization === undefined) throw new Error('Creating the organization returned no row');
  const organizationId = organization.id;
  const userPrefix = `bench-${runId}-user-`;
  const userId = `${userPrefix}0000`;

  await db.execute(sql`
    insert into users (id, email, first_name, last_name, phone, dob, kyc_status)
    select ${userPrefix}::text || lpad(n::text, 4, '0'), ${userPrefix}::text || n || '@bench.example', 'Bench', 'User ' || n,
           '+2547' || lpad((10000000 + n)::text, 8, '0'), date '1990-01-01' + n, 'verified'
    from generate_series(0, ${SEEDED_USERS - 1}::int) as n`);
  await db.execute(sql`
    insert into memberships (organization_id, user_id, role)
    select ${organizationId}::uuid, ${userPrefix}::text || lpad(n::text, 4, '0'), case when n = 0 then 'owner' else 'member' end
    from generate_series(0, ${SEEDED_USERS - 1}::int) as n`);

  // The measured user gets the first MEASURED_USER_NOTIFICATIONS; the rest go round the other 999 users.
  const others = SEEDED_USERS - 1;
  await db.execute(sql`
    insert into notifications (user_id, organization_id, title, message, type, action_url, read_at, created_at)
    select case when n < ${MEASURED_USER_NOTIFICATIONS}::int then ${userId}::text
                else ${userPrefix}::text || lpad((1 + (n - ${MEASURED_USER_NOTIFICATIONS}::int) % ${others}::int)::text, 4, '0') end,
           ${organizationId}::uuid,
           'Notification ' || n,
           'Your wallet was charged ' || (n % 500) || ' KES for a verification session.',
           (array['info', 'warning', 'success', 'error'])[1 + n % 4],
           case when n % 3 = 0 then '/wallet' else null end,
           case when n % 2 = 0 then ${now.toISOString()}::timestamptz - make_interval(mins => n) else null end,
           ${now.toISOString()}::timestamptz - make_interval(mins => n * 7)
    from generate_series(0, ${SEEDED_NOTIFICATIONS - 1}::int) as n`);

  await db.transaction((tx) =>
    topUpWallet(
      tx,
      { organizationId, environment: 'live' },
      { amount: WALLET_BALANCE_KES, reference: `bench:${runId}` },
    ),
  );
  // A subscription in its first monthly period, bought ten or so days ago: periods run from the anchor day
  // (UTC); a day of the month every month has keeps the period end plain.
  const anchor = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 10));
  while (anchor.getUTCDate() > 28) anchor.setUTCDate(anchor.getUTCDate() - 1);
  const periodEnd = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, anchor.getUTCDate()));
  await db.insert(mailSubscriptions).values({
    organizationId,
    plan: 'scale',
    seats: 20,
    billingCycle: 'monthly',
    status: 'active',
    billingAnchor: anchor.toISOString().slice(0, 10),
    currentPeriodStart: anchor,
    currentPeriodEnd: periodEnd,
    renewalDueAt: periodEnd,
  });

  const key = (name: string) =>
    createApiKey(db, { organizationId, environment: 'live', name, rateLimitPerMinute: API_KEY_RATE_LIMIT_PER_MINUTE });
  const created = {
    sessions: await key('Bench: sessions'),
    sessionReplay: await key('Bench: session replay'),
    folders: await key('Bench: folders'),
    reads: await key('Bench: reads'),
  };
  return {
    organizationId,
    userId,
    apiKeys: {
      sessions: created.sessions.secret,
      sessionReplay: created.sessionReplay.secret,
      folders: created.folders.secret,
      reads: created.reads.secret,
    },
    apiKeyIds: Object.values(created).map((apiKey) => apiKey.id),
  };
}
