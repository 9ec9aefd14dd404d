import { createApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { mailSubscriptions, organizations } from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { sql } from 'drizzle-orm';
import { seedSessionsAwaitingReview } from './seed-decisions.js';
import { seedPayments, seedVerificationSessions, seedWalletHistory } from './seed-history.js';
import {
  type CustomerOrganization,
  type PlatformOrganization,
  seedCustomerOrganizations,
  seedPlatformOrganization,
} from './seed-organizations.js';

/** What the bench calls the services with. */
export interface BenchFixture {
  organizationId: string;
  /** The user the bearer-token endpoints act as: a member of the organization with its share of notifications. */
  userId: string;
  /** Live API keys with a raised rate limit: one per backend endpoint, so no endpoint shares another's budget. */
  apiKeys: { sessions: string; sessionReplay: string; folders: string; reads: string; statement: string };
  /** The many customers the spread-out rows take turns with, each with its own key and funded wallet. */
  customers: CustomerOrganization[];
  /** PLATFORM_ORGANIZATION_ID of the run, and its reviewer. */
  platform: PlatformOrganization;
  /** Live sessions of the customers waiting for a reviewer, in the order the decision row takes them. */
  sessionsAwaitingReview: string[];
  /** Every key and user whose rate-limit counters the run leaves in Redis. */
  apiKeyIds: string[];
  userIds: string[];
}

export interface SeedSizes {
  /** Organizations the spread-out rows take turns with (issue 21: 100). */
  customers: number;
  /** Sessions waiting for a reviewer: one per decision request of the run, service and baseline alike. */
  sessionsAwaitingReview: number;
}

const SEEDED_USERS = 1_000;
const SEEDED_NOTIFICATIONS = 10_000;
/** The measured user's share: enough for a full page of 50 and an unread count over more than the page. */
const MEASURED_USER_NOTIFICATIONS = 100;
/** Far above what a run spends: sessions hold 50 KES each. */
const WALLET_BALANCE_KES = 1_000_000_000;
/** Sessions in the measured wallet's history: each a hold and its capture or release, more than a page of 50. */
const HISTORY_SESSIONS = 60;
/** The measured organization's payments: more than a page of 50. */
const SEEDED_PAYMENTS = 200;
/** The measured organization's live verification sessions: more than a page of 50. */
const SEEDED_VERIFICATION_SESSIONS = 60;
const API_KEY_RATE_LIMIT_PER_MINUTE = 100_000_000;

/**
 * One organization with 1,000 member users and 10,000 notifications among them (bulk inserted in SQL), a
 * live wallet with a large balance and a history of movements, 200 payments, a scale mail subscription and fresh
 * live API keys; `sizes.customers` more organizations, each with an owner, a key and a funded live wallet, and
 * `sizes.sessionsAwaitingReview` sessions of theirs waiting for a reviewer; and the platform organization with that
 * reviewer. `runId` keeps the user ids (and so the Redis rate-limit keys) of this run apart from any other.
 */
export async function seedBenchData(
  db: Database,
  runId: string,
  sizes: SeedSizes,
  now = new Date(),
): Promise<BenchFixture> {
  const name = `Bench ${runId}`;
  const [organization] = await db
    .insert(organizations)
    .values({ name, activatedAt: now })
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
  await seedWalletHistory(db, { organizationId, environment: 'live' }, HISTORY_SESSIONS);
  await seedPayments(db, { id: organizationId, name }, userId, SEEDED_PAYMENTS, now);
  await seedVerificationSessions(db, organizationId, SEEDED_VERIFICATION_SESSIONS, now);
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
    statement: await key('Bench: wallet statement'),
  };

  const customers = await seedCustomerOrganizations(db, runId, sizes.customers);
  const platform = await seedPlatformOrganization(db, runId);
  const sessionsAwaitingReview = await seedSessionsAwaitingReview(
    db,
    customers.map((customer) => customer.id),
    sizes.sessionsAwaitingReview,
    now,
  );
  return {
    organizationId,
    userId,
    apiKeys: {
      sessions: created.sessions.secret,
      sessionReplay: created.sessionReplay.secret,
      folders: created.folders.secret,
      reads: created.reads.secret,
      statement: created.statement.secret,
    },
    customers,
    platform,
    sessionsAwaitingReview,
    apiKeyIds: [
      ...Object.values(created).map((apiKey) => apiKey.id),
      ...customers.map((customer) => customer.apiKeyId),
    ],
    userIds: [userId, platform.reviewerUserId],
  };
}
