import { eq, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { documentKinds, kybDocumentKinds, kycDocumentKinds } from '../enums.js';
import { migrationsFolder } from '../migrate.js';
import { createTestDatabase } from '../testing.js';
import {
  organizations,
  type VerificationSession,
  verificationConsents,
  verificationDocuments,
  verificationSessions,
  wallets,
} from './index.js';

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return cause as { code?: string; message: string };
  }
  throw new Error('Expected the statement to fail');
}

async function expectCheckViolation(work: Promise<unknown>, constraint: string): Promise<void> {
  const error = await databaseError(work);
  expect(error.code).toBe('23514');
  expect(error.message).toContain(constraint);
}

const SHA256 = 'a'.repeat(64);

describe('identity documents schema', () => {
  let handle: DatabaseHandle;
  let walletId: string;
  let organizationId: string;

  beforeAll(async () => {
    handle = await createTestDatabase();
    const [organization] = await handle.db.insert(organizations).values({ name: 'Acme' }).returning();
    if (organization === undefined) throw new Error('no organization');
    organizationId = organization.id;
    const [wallet] = await handle.db.insert(wallets).values({ organizationId, environment: 'live' }).returning();
    if (wallet === undefined) throw new Error('no wallet');
    walletId = wallet.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  const newSession = async (values: Partial<typeof verificationSessions.$inferInsert> = {}) => {
    const [session] = await handle.db
      .insert(verificationSessions)
      .values({
        organizationId,
        environment: 'live',
        walletId,
        type: 'kyc',
        externalEndUserId: 'end-user',
        price: 50,
        requiredDocuments: ['national_id_or_passport', 'selfie'],
        decisionSource: 'manual',
        expiresAt: new Date('2030-01-01T00:00:00Z'),
        ...values,
      })
      .returning();
    if (session === undefined) throw new Error('no session');
    return session;
  };

  const document = (sessionId: string, values: Partial<typeof verificationDocuments.$inferInsert> = {}) => ({
    sessionId,
    kind: 'selfie' as const,
    contentType: 'image/jpeg' as const,
    sizeBytes: 123_456,
    sha256: SHA256,
    storageKey: `verification/${crypto.randomUUID()}`,
    encryptionKeyId: 'k1',
    ...values,
  });

  it('defaults a session to English, without a return URL, details, submission or erasure', async () => {
    const session: VerificationSession = await newSession();
    expect(session).toMatchObject({
      locale: 'en',
      returnUrl: null,
      decisionSource: 'manual',
      submittedDetails: null,
      submittedAt: null,
      personalDataErasedAt: null,
    });
  });

  it('accepts only the locales en and sw, and the decision sources sandbox and manual', async () => {
    expect((await newSession({ locale: 'sw', decisionSource: 'sandbox' })).locale).toBe('sw');
    const session = await newSession();
    await expectCheckViolation(
      handle.db.execute(sql`update verification_sessions set locale = 'fr' where id = ${session.id}`),
      'verification_sessions_locale_check',
    );
    await expectCheckViolation(
      handle.db.execute(sql`update verification_sessions set decision_source = 'provider' where id = ${session.id}`),
      'verification_sessions_decision_source_check',
    );
    const missing = await databaseError(
      handle.db.execute(sql`update verification_sessions set decision_source = null where id = ${session.id}`),
    );
    expect(missing.code).toBe('23502');
  });

  it('stores submitted details as bytes, returned unchanged', async () => {
    const ciphertext = Uint8Array.from([0, 1, 2, 253, 254, 255]);
    const session = await newSession({ submittedDetails: ciphertext });
    const [read] = await handle.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, session.id));
    expect(read?.details).toBeInstanceOf(Uint8Array);
    expect([...(read?.details ?? [])]).toEqual([0, 1, 2, 253, 254, 255]);
  });

  it('accepts every kyc and kyb document kind, and no other', async () => {
    expect([...documentKinds]).toEqual([...kycDocumentKinds, ...kybDocumentKinds]);
    const session = await newSession();
    for (const kind of documentKinds) {
      await handle.db.insert(verificationDocuments).values(document(session.id, { kind }));
    }
    await expectCheckViolation(
      handle.db.execute(
        sql`insert into verification_documents (session_id, kind, content_type, size_bytes, sha256, storage_key, encryption_key_id)
            values (${session.id}, 'national_id_or_passport', 'image/png', 1, ${SHA256}, 'other-kind', 'k1')`,
      ),
      'verification_documents_kind_check',
    );
  });

  it.each([
    ['a content type it cannot hold', { contentType: 'image/gif' }, 'verification_documents_content_type_check'],
    ['an empty file', { sizeBytes: 0 }, 'verification_documents_size_bytes_check'],
    ['a digest that is not lowercase SHA-256 hex', { sha256: 'A'.repeat(64) }, 'verification_documents_sha256_check'],
    ['a short digest', { sha256: 'a'.repeat(63) }, 'verification_documents_sha256_check'],
  ])('refuses a document with %s', async (_label, values, constraint) => {
    const session = await newSession();
    await expectCheckViolation(
      handle.db.insert(verificationDocuments).values(document(session.id, values as never)),
      constraint,
    );
  });

  it('refuses two documents with one storage key', async () => {
    const session = await newSession();
    await handle.db.insert(verificationDocuments).values(document(session.id, { storageKey: 'verification/same' }));
    const error = await databaseError(
      handle.db.insert(verificationDocuments).values(document(session.id, { storageKey: 'verification/same' })),
    );
    expect(error.code).toBe('23505');
  });

  it('records consent in en or sw, and removes documents and consents with their session', async () => {
    const session = await newSession();
    await handle.db.insert(verificationDocuments).values(document(session.id));
    await handle.db
      .insert(verificationConsents)
      .values({ sessionId: session.id, textVersion: '2025-01', locale: 'sw', ip: '203.0.113.7', userAgent: null });
    await expectCheckViolation(
      handle.db
        .insert(verificationConsents)
        .values({ sessionId: session.id, textVersion: '2025-01', locale: 'de' as never, ip: '203.0.113.7' }),
      'verification_consents_locale_check',
    );

    await handle.db.delete(verificationSessions).where(eq(verificationSessions.id, session.id));
    const left = await queryRows<{ documents: number; consents: number }>(
      handle.db,
      sql`select (select count(*)::int from verification_documents where session_id = ${session.id}) as documents,
                 (select count(*)::int from verification_consents where session_id = ${session.id}) as consents`,
    );
    expect(left).toEqual([{ documents: 0, consents: 0 }]);
  });
});

/**
 * Replays the committed migrations on an emptied schema up to the first that `marks`, so a test can add rows as
 * they were before it; `rest` applies that migration and the ones after it.
 */
async function migrateUpTo(
  handle: DatabaseHandle,
  marks: (statement: string) => boolean,
  expectedIndex: number,
): Promise<{ rest: () => Promise<void> }> {
  await handle.db.execute(sql`drop schema public cascade`);
  await handle.db.execute(sql`create schema public`);
  const migrations = readMigrationFiles({ migrationsFolder });
  const index = migrations.findIndex((migration) => migration.sql.some(marks));
  expect(index).toBe(expectedIndex);
  const apply = async (statements: string[]) => {
    for (const statement of statements) await handle.db.execute(sql.raw(statement));
  };
  for (const migration of migrations.slice(0, index)) await apply(migration.sql);
  return {
    rest: async () => {
      for (const migration of migrations.slice(index)) await apply(migration.sql);
    },
  };
}

describe('migrations on rows made before them', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('0012 gives test sessions the sandbox and live sessions a reviewer', async () => {
    const { rest } = await migrateUpTo(handle, (statement) => /decision_source/.test(statement), 12);
    await handle.db.execute(sql`
      with organization as (insert into organizations (name) values ('Before') returning id),
      wallet as (
        insert into wallets (organization_id, environment) select id, 'live' from organization returning id, organization_id
      )
      insert into verification_sessions
        (organization_id, environment, wallet_id, type, external_end_user_id, price, required_documents, expires_at)
      select organization_id, environment, id, 'kyc', environment, 0, '[]', now()
      from wallet, (values ('live'), ('test')) as environments (environment)`);

    await rest();

    const sessions = await queryRows<{ environment: string; decision_source: string; locale: string }>(
      handle.db,
      sql`select environment, decision_source, locale from verification_sessions order by environment`,
    );
    expect(sessions).toEqual([
      { environment: 'live', decision_source: 'manual', locale: 'en' },
      { environment: 'test', decision_source: 'sandbox', locale: 'en' },
    ]);
  });

  it('0015 removes the address and user agent from the consents of sessions already erased, and only those', async () => {
    const { rest } = await migrateUpTo(handle, (statement) => /privacy_notice_url/.test(statement), 15);
    await handle.db.execute(sql`
      with organization as (insert into organizations (name) values ('Before') returning id),
      wallet as (
        insert into wallets (organization_id, environment) select id, 'live' from organization returning id, organization_id
      ),
      sessions as (
        insert into verification_sessions (organization_id, environment, wallet_id, type, external_end_user_id, price,
          required_documents, decision_source, status, expires_at, completed_at, personal_data_erased_at)
        select organization_id, 'live', id, 'kyc', name, 0, '[]', 'manual', 'verified', now(), now(), erased_at
        from wallet, (values ('erased', now()), ('kept', null)) as kinds (name, erased_at)
        returning id, external_end_user_id
      )
      insert into verification_consents (session_id, text_version, locale, ip, user_agent)
      select id, 'consent-2026-11', 'sw', '203.0.113.7', 'Phone browser' from sessions`);

    await rest();

    const consents = await queryRows<Record<string, unknown>>(
      handle.db,
      sql`select s.external_end_user_id as session, c.text_version, c.locale, c.ip, c.user_agent,
                 c.created_at is not null as dated
          from verification_consents c join verification_sessions s on s.id = c.session_id order by 1`,
    );
    expect(consents).toEqual([
      { session: 'erased', text_version: 'consent-2026-11', locale: 'sw', ip: null, user_agent: null, dated: true },
      {
        session: 'kept',
        text_version: 'consent-2026-11',
        locale: 'sw',
        ip: '203.0.113.7',
        user_agent: 'Phone browser',
        dated: true,
      },
    ]);
  });
});
