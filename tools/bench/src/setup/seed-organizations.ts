import { createApiKey } from '@platform/api-keys';
import { type Database, queryRows } from '@platform/db';
import { topUpWallet } from '@platform/ledger';
import { sql } from 'drizzle-orm';

/** One of the many customers the spread-out rows take turns with. */
export interface CustomerOrganization {
  id: string;
  /** Its one member, the owner (notified of each decision, as members are). */
  ownerUserId: string;
  /** A live key of its own, rate limit raised for the run. */
  apiKey: string;
  apiKeyId: string;
}

/** The platform's own organization (PLATFORM_ORGANIZATION_ID) and the reviewer who decides sessions in it. */
export interface PlatformOrganization {
  id: string;
  reviewerUserId: string;
}

/** Far above what a run spends: sessions hold 50 KES each. */
const CUSTOMER_WALLET_BALANCE_KES = 1_000_000_000;
const API_KEY_RATE_LIMIT_PER_MINUTE = 100_000_000;

/**
 * `count` organizations, each with an owner, a live API key and a funded live wallet (topped up through the
 * ledger, so each has its movement). Organizations and users are inserted in bulk; keys and top-ups one by one.
 */
export async function seedCustomerOrganizations(
  db: Database,
  runId: string,
  count: number,
): Promise<CustomerOrganization[]> {
  const userPrefix = `bench-${runId}-customer-`;
  const rows = await queryRows<{ id: string; owner_user_id: string }>(
    db,
    sql`
    with created as (
      insert into organizations (name, activated_at)
      select 'Bench customer ' || lpad(n::text, 3, '0'), now() from generate_series(1, ${count}::int) as n
      returning id, name
    ), numbered as (
      select id, ${userPrefix}::text || substr(name, length('Bench customer ') + 1) as owner_user_id from created
    ), owners as (
      insert into users (id, email, first_name, last_name, kyc_status)
      select owner_user_id, owner_user_id || '@bench.example', 'Bench', 'Owner', 'verified' from numbered
    ), members as (
      insert into memberships (organization_id, user_id, role) select id, owner_user_id, 'owner' from numbered
    )
    select id, owner_user_id from numbered order by owner_user_id`,
  );

  const customers: CustomerOrganization[] = [];
  for (const row of rows) {
    const key = await createApiKey(db, {
      organizationId: row.id,
      environment: 'live',
      name: 'Bench: customer',
      rateLimitPerMinute: API_KEY_RATE_LIMIT_PER_MINUTE,
    });
    await db.transaction((tx) =>
      topUpWallet(
        tx,
        { organizationId: row.id, environment: 'live' },
        { amount: CUSTOMER_WALLET_BALANCE_KES, reference: `bench:${runId}:${row.id}` },
      ),
    );
    customers.push({ id: row.id, ownerUserId: row.owner_user_id, apiKey: key.secret, apiKeyId: key.id });
  }
  return customers;
}

/** The platform organization with one member, a reviewer. */
export async function seedPlatformOrganization(db: Database, runId: string): Promise<PlatformOrganization> {
  const reviewerUserId = `bench-${runId}-reviewer`;
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`
    with platform as (
      insert into organizations (name, activated_at) values ('Bench platform', now()) returning id
    ), reviewer as (
      insert into users (id, email, first_name, last_name, kyc_status)
      values (${reviewerUserId}, ${`${reviewerUserId}@bench.example`}, 'Bench', 'Reviewer', 'verified')
    ), membership as (
      insert into memberships (organization_id, user_id, role) select id, ${reviewerUserId}, 'reviewer' from platform
    )
    select id from platform`,
  );
  if (row === undefined) throw new Error('Creating the platform organization returned no row');
  return { id: row.id, reviewerUserId };
}
