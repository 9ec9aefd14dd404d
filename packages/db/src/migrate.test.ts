import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from './client.js';
import { countAppliedMigrations, countCommittedMigrations, migrateDatabase, migrationsFolder } from './migrate.js';
import { createTestDatabase } from './testing.js';

const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

const everyTable = [
  'allowed_origins',
  'api_keys',
  'audit_events',
  'avatar_uploads',
  'bank_transfer_confirmations',
  'credit_balance_entries',
  'dashboard_sessions',
  'disabled_webhook_targets',
  'document_number_series',
  'drive_folders',
  'idempotency_records',
  'invoices',
  'ledger_entries',
  'ledger_transactions',
  'mail_subscription_changes',
  'mail_subscription_reminders',
  'mail_subscriptions',
  'memberships',
  'notifications',
  'organization_invitations',
  'organizations',
  'payment_events',
  'payment_methods',
  'payments',
  'receipts',
  'review_console_sessions',
  'users',
  'verification_checks',
  'verification_consents',
  'verification_documents',
  'verification_prices',
  'verification_provider_jobs',
  'verification_review_claims',
  'verification_session_transitions',
  'verification_sessions',
  'wallets',
  'webhook_delivery_attempts',
  'webhook_endpoints',
  'webhook_events',
];

async function publicTables(handle: DatabaseHandle): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    handle.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
  );
  return rows.map((row) => row.name);
}

describe('migrateDatabase', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await createTestDatabase();
  });
  afterEach(async () => {
    await handle.close();
  });

  it('has applied every committed migration and created every table', async () => {
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(countCommittedMigrations()).toBe(journal.entries.length);
    expect(await countAppliedMigrations(handle)).toBe(journal.entries.length);
    expect(await publicTables(handle)).toEqual(everyTable);
  });

  it('does nothing when run again on an up-to-date database', async () => {
    await migrateDatabase(handle);
    expect(await countAppliedMigrations(handle)).toBe(journal.entries.length);
  });

  it('migrates an empty database from scratch, also with two migrators starting at once', async () => {
    await handle.db.execute(sql`drop schema public cascade`);
    await handle.db.execute(sql`create schema public`);
    await handle.db.execute(sql`drop schema drizzle cascade`);
    expect(await countAppliedMigrations(handle)).toBe(0);
    expect(await publicTables(handle)).toEqual([]);

    await Promise.all([migrateDatabase(handle), migrateDatabase(handle)]);

    expect(await countAppliedMigrations(handle)).toBe(journal.entries.length);
    expect(await publicTables(handle)).toEqual(everyTable);
  });
});
