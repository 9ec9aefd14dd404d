import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseExecutor, type DatabaseHandle, queryRows } from './client.js';
import { creditBalanceEntries, mailSubscriptions, organizations } from './schema/index.js';
import { tableChecksums } from './table-checksums.js';
import { createTestDatabase } from './testing.js';

// The database itself keeps credit movements append-only and the cached credit balance equal to their sum
// (migration 0008), and keeps credit history from being deleted with its organization (0007). Runs on PGlite,
// and on PostgreSQL with DATABASE_URL, so both drivers are shown to refuse the same things.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string; constraint?: string }> {
  try {
    await work;
  } catch (error) {
    const cause = ((error as { cause?: unknown }).cause ?? error) as {
      code?: string;
      message: string;
      constraint?: string;
      constraint_name?: string;
    };
    // postgres.js calls it constraint_name, PGlite constraint.
    return { code: cause.code, message: cause.message, constraint: cause.constraint_name ?? cause.constraint };
  }
  throw new Error('Expected the statement to fail');
}

async function newOrganization(name: string): Promise<string> {
  const [organization] = await handle.db.insert(organizations).values({ name }).returning();
  return organization!.id;
}

async function insertSubscription(db: DatabaseExecutor, organizationId: string, creditBalance = 0): Promise<string> {
  const [subscription] = await db
    .insert(mailSubscriptions)
    .values({
      organizationId,
      plan: 'core',
      seats: 5,
      billingCycle: 'monthly',
      status: 'active',
      currentPeriodStart: new Date('2024-01-01T00:00:00Z'),
      currentPeriodEnd: new Date('2024-02-01T00:00:00Z'),
      creditBalance,
    })
    .returning();
  return subscription!.id;
}

/** A movement as the service records it: the entry and the cached balance in one transaction. */
function recordMovement(organizationId: string, amount: number, reference: string) {
  return handle.db.transaction(async (tx) => {
    await tx.insert(creditBalanceEntries).values({
      organizationId,
      amount,
      reason: amount > 0 ? 'downgrade' : 'upgrade',
      reference,
    });
    await tx
      .update(mailSubscriptions)
      .set({ creditBalance: sql`${mailSubscriptions.creditBalance} + ${amount}` })
      .where(eq(mailSubscriptions.organizationId, organizationId));
  });
}

/** An organization with a subscription and 300 KES of credit: +500, then -200. */
async function organizationWithCredit(): Promise<{ organizationId: string; subscriptionId: string }> {
  const organizationId = await newOrganization('Credit history');
  const subscriptionId = await insertSubscription(handle.db, organizationId);
  await recordMovement(organizationId, 500, `change:${organizationId}:down`);
  await recordMovement(organizationId, -200, `change:${organizationId}:up`);
  return { organizationId, subscriptionId };
}

const checksums = () => tableChecksums(handle.db);
const cachedBalance = async (organizationId: string) =>
  (await handle.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.organizationId, organizationId)))[0]
    ?.creditBalance;
const entriesOf = (organizationId: string) =>
  handle.db.$count(creditBalanceEntries, eq(creditBalanceEntries.organizationId, organizationId));

describe('credit balance entries are append-only', () => {
  it('refuses to update or delete a credit movement', async () => {
    const { organizationId } = await organizationWithCredit();
    const before = await checksums();

    const update = await databaseError(
      handle.db
        .update(creditBalanceEntries)
        .set({ amount: 5_000 })
        .where(eq(creditBalanceEntries.organizationId, organizationId)),
    );
    expect(update.code).toBe('23001');
    expect(update.message).toContain(
      'Credit balance entries are append-only: UPDATE on credit_balance_entries is refused',
    );

    const remove = await databaseError(
      handle.db.delete(creditBalanceEntries).where(eq(creditBalanceEntries.organizationId, organizationId)),
    );
    expect(remove.code).toBe('23001');
    expect(remove.message).toContain('DELETE on credit_balance_entries is refused');

    expect(await checksums()).toEqual(before);
  });

  it('refuses to delete an organization with credit history, and keeps its subscription', async () => {
    const { organizationId, subscriptionId } = await organizationWithCredit();
    const before = await checksums();

    // A RESTRICT foreign key is reported as 23001 by newer servers (PGlite's PostgreSQL 18), as 23503 by older ones.
    const error = await databaseError(handle.db.delete(organizations).where(eq(organizations.id, organizationId)));
    expect(['23001', '23503']).toContain(error.code);
    expect(error.message).toContain(
      'foreign key constraint "credit_balance_entries_organization_id_organizations_id_fk"',
    );

    expect(await checksums()).toEqual(before);
    expect(await handle.db.$count(mailSubscriptions, eq(mailSubscriptions.id, subscriptionId))).toBe(1);
  });

  it('lets an organization that never had credit go, subscription and all', async () => {
    const organizationId = await newOrganization('No credit');
    const subscriptionId = await insertSubscription(handle.db, organizationId);
    await handle.db.delete(organizations).where(eq(organizations.id, organizationId));
    expect(await handle.db.$count(mailSubscriptions, eq(mailSubscriptions.id, subscriptionId))).toBe(0);
  });
});

describe('the cached credit balance equals the sum of the entries, checked at commit', () => {
  it('commits a movement recorded with its cached balance, whatever order the two are written in', async () => {
    const { organizationId } = await organizationWithCredit();
    await handle.db.transaction(async (tx) => {
      // Each statement on its own breaks the rule: the check waits for the commit.
      await tx
        .update(mailSubscriptions)
        .set({ creditBalance: sql`${mailSubscriptions.creditBalance} - 300` })
        .where(eq(mailSubscriptions.organizationId, organizationId));
      await tx
        .insert(creditBalanceEntries)
        .values({ organizationId, amount: -300, reason: 'renewal', reference: `change:${organizationId}:renewal` });
    });
    expect(await cachedBalance(organizationId)).toBe(0);
    expect(await entriesOf(organizationId)).toBe(3);
  });

  it('refuses, at commit, a movement whose cached balance did not change, and keeps none of it', async () => {
    const { organizationId } = await organizationWithCredit();
    const before = await checksums();
    const error = await databaseError(
      handle.db.transaction((tx) =>
        tx
          .insert(creditBalanceEntries)
          .values({ organizationId, amount: 100, reason: 'downgrade', reference: `change:${organizationId}:lost` }),
      ),
    );
    expect(error.code).toBe('23514');
    expect(error.constraint).toBe('credit_balance_entries_cached');
    expect(error.message).toMatch(
      /The credit balance of organization [0-9a-f-]{36} is not the sum of its entries: 300 KES cached, 400 KES in entries/,
    );
    expect(await checksums()).toEqual(before);
  });

  it('refuses a cached balance changed without a movement, inside a transaction or not', async () => {
    const { organizationId } = await organizationWithCredit();
    const before = await checksums();
    const raise = (db: DatabaseExecutor) =>
      db
        .update(mailSubscriptions)
        .set({ creditBalance: 1_000 })
        .where(eq(mailSubscriptions.organizationId, organizationId));

    const alone = await databaseError(raise(handle.db));
    expect(alone.code).toBe('23514');
    expect(alone.constraint).toBe('mail_subscriptions_credit_balance_cached');
    expect(alone.message).toContain('1000 KES cached, 300 KES in entries');

    const inTransaction = await databaseError(
      handle.db.transaction(async (tx) => {
        await raise(tx);
      }),
    );
    expect(inTransaction.code).toBe('23514');
    expect(await checksums()).toEqual(before);
  });

  it('refuses a subscription that starts with credit no movement gave it', async () => {
    const organizationId = await newOrganization('Credit from nowhere');
    const error = await databaseError(insertSubscription(handle.db, organizationId, 250));
    expect(error.code).toBe('23514');
    expect(error.constraint).toBe('mail_subscriptions_credit_balance_cached');
    expect(await handle.db.$count(mailSubscriptions, eq(mailSubscriptions.organizationId, organizationId))).toBe(0);
  });

  it('refuses credit for an organization without a subscription (its balance is 0)', async () => {
    const organizationId = await newOrganization('No subscription');
    const error = await databaseError(
      handle.db
        .insert(creditBalanceEntries)
        .values({ organizationId, amount: 100, reason: 'downgrade', reference: `change:${organizationId}` }),
    );
    expect(error.code).toBe('23514');
    expect(error.message).toContain('0 KES cached, 100 KES in entries');
    expect(await entriesOf(organizationId)).toBe(0);
  });

  it('refuses deleting a subscription that holds credit, or moving it to another organization', async () => {
    const { subscriptionId } = await organizationWithCredit();
    const other = await newOrganization('Other');
    const before = await checksums();

    const deleted = await databaseError(
      handle.db.delete(mailSubscriptions).where(eq(mailSubscriptions.id, subscriptionId)),
    );
    expect(deleted.code).toBe('23514');
    expect(deleted.message).toContain('0 KES cached, 300 KES in entries');

    // The organization left behind would keep entries that no balance counts.
    const moved = await databaseError(
      handle.db
        .update(mailSubscriptions)
        .set({ organizationId: other })
        .where(eq(mailSubscriptions.id, subscriptionId)),
    );
    expect(moved.code).toBe('23514');
    expect(await checksums()).toEqual(before);
  });

  it('lets a subscription without credit go', async () => {
    const organizationId = await newOrganization('Credit used up');
    const subscriptionId = await insertSubscription(handle.db, organizationId);
    await recordMovement(organizationId, 100, `change:${organizationId}:down`);
    await recordMovement(organizationId, -100, `change:${organizationId}:up`);
    await handle.db.delete(mailSubscriptions).where(eq(mailSubscriptions.id, subscriptionId));
    expect(await handle.db.$count(mailSubscriptions, eq(mailSubscriptions.id, subscriptionId))).toBe(0);
  });
});

describe('the migration', () => {
  it('installs the same triggers on either driver: a row guard and two deferred balance checks', async () => {
    const rows = await queryRows<{ name: string; table: string; deferrable: boolean; deferred: boolean }>(
      handle.db,
      sql`select t.tgname as name, c.relname as "table", t.tgdeferrable as deferrable, t.tginitdeferred as deferred
          from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where not t.tgisinternal and c.relname in ('credit_balance_entries', 'mail_subscriptions')
          order by t.tgname`,
    );
    expect(rows).toEqual([
      {
        name: 'credit_balance_entries_append_only',
        table: 'credit_balance_entries',
        deferrable: false,
        deferred: false,
      },
      { name: 'credit_balance_entries_cached', table: 'credit_balance_entries', deferrable: true, deferred: true },
      {
        name: 'mail_subscriptions_credit_balance_cached',
        table: 'mail_subscriptions',
        deferrable: true,
        deferred: true,
      },
    ]);
  });
});
