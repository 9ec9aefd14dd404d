import { createApiKey, revokeApiKey, touchApiKeys } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { apiKeys, organizations } from '@platform/db/schema';
import { generateDocumentKeyEntry } from '@platform/document-vault';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestClock, testClock, useTestDatabase } from '../../test/app-fixtures.js';
import { type BackendApiDeps, type BackendApp, buildApp } from '../app.js';
import { runApiKeysCommand } from '../cli/api-keys-command.js';
import { loadBackendApiConfig } from '../config.js';
import { API_KEY_HEADER } from './api-key-authentication.js';

// Requests with a key record its lastUsedAt (shown by main-api's GET /v1/api-keys and the api-keys command)
// after they are answered, at most once a minute per key, by one instance and by several together.

describe("recording an API key's last use", () => {
  const database = useTestDatabase();
  const apps: BackendApp[] = [];
  let clock: TestClock;
  let organizationId: string;
  let key: { id: string; secret: string };
  /** Every call the apps made to store uses: the ids and what touchApiKeys wrote of them. */
  let writes: Array<{ ids: string[]; written: string[] }>;

  beforeEach(async () => {
    clock = testClock();
    writes = [];
    await database.db.delete(organizations);
    const [organization] = await database.db.insert(organizations).values({ name: 'Acme' }).returning();
    organizationId = organization!.id;
    key = await createApiKey(database.db, { organizationId, environment: 'live' });
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  /** Stores uses with touchApiKeys, as the app does by default, and notes each call. */
  const countedTouch = (db: Database) => async (ids: string[], now: Date, intervalMs: number) => {
    const written = await touchApiKeys(db, ids, { now, minIntervalMs: intervalMs });
    writes.push({ ids, written });
    return written;
  };

  async function build(deps: Partial<BackendApiDeps> = {}, env: NodeJS.ProcessEnv = {}): Promise<BackendApp> {
    const app = buildApp(
      { database: database.handle, now: clock.now, recordApiKeyUses: countedTouch(database.db), ...deps },
      loadBackendApiConfig({
        LOG_LEVEL: 'silent',
        IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
        VERIFICATION_EXPIRY_INTERVAL_MS: '0',
        WEBHOOK_DELIVERY_ENABLED: 'false',
        // No test credit: a test wallet with a ledger movement would keep its organization from being deleted
        // between tests (docs/decisions.md#test-credit).
        TEST_WALLET_CREDIT: '0',
        // A key of its own, so the only warnings these apps log are the ones the tests look for.
        DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('test'),
        ...env,
      }),
    );
    apps.push(app);
    await app.ready();
    return app;
  }

  const wallet = (app: BackendApp, secret = key.secret) =>
    app.inject({ method: 'GET', url: '/v1/wallet', headers: { [API_KEY_HEADER]: secret } });
  const lastUsedAt = async (id = key.id) =>
    (
      await database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id))
    )[0]?.at?.toISOString() ?? null;

  it('records the time of a request with the key, which the api-keys list then prints', async () => {
    const app = await build();
    expect((await wallet(app)).statusCode).toBe(200);
    await app.apiKeyUsage.flush();
    expect(await lastUsedAt()).toBe('2026-03-02T09:00:00.000Z');

    const listed = await runApiKeysCommand(['list', '--organization', organizationId], database.db);
    expect(listed.lines).toHaveLength(1);
    expect(listed.lines[0]).toMatch(/ {2}created \S+Z {2}last used 2026-03-02T09:00:00\.000Z$/);
  });

  it('writes once within a minute, however many requests and instances use the key, and again after it', async () => {
    const first = await build();
    const second = await build();
    await wallet(first);
    await first.apiKeyUsage.flush();
    expect(writes).toEqual([{ ids: [key.id], written: [key.id] }]);

    // The same instance does not even try again within the minute.
    clock.advance(30_000);
    await wallet(first);
    await wallet(first);
    await first.apiKeyUsage.flush();
    expect(writes).toHaveLength(1);

    // Another instance has not seen the key: it tries, and the SQL condition writes nothing.
    await wallet(second);
    await second.apiKeyUsage.flush();
    expect(writes).toEqual([
      { ids: [key.id], written: [key.id] },
      { ids: [key.id], written: [] },
    ]);
    expect(await lastUsedAt()).toBe('2026-03-02T09:00:00.000Z');

    // Exactly a minute later is still within it; past it, the key is written again.
    clock.advance(30_000);
    await wallet(first);
    await first.apiKeyUsage.flush();
    expect(writes).toHaveLength(2);
    clock.advance(1);
    await wallet(first);
    await first.apiKeyUsage.flush();
    expect(writes).toHaveLength(3);
    expect(writes[2]).toEqual({ ids: [key.id], written: [key.id] });
    expect(await lastUsedAt()).toBe('2026-03-02T09:01:00.001Z');
  });

  it('records nothing for a revoked, unknown or missing key, nor for a public page', async () => {
    const app = await build();
    const revoked = await createApiKey(database.db, { organizationId, environment: 'live' });
    await revokeApiKey(database.db, { id: revoked.id });
    expect((await wallet(app, revoked.secret)).statusCode).toBe(401);
    expect((await wallet(app, `sk_live_${'x'.repeat(43)}`)).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/v1/wallet' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.apiKeyUsage.flush();
    expect(writes).toEqual([]);
    expect(await lastUsedAt(revoked.id)).toBeNull();
    expect(await lastUsedAt()).toBeNull();

    // Only the key that authenticated is recorded.
    expect((await wallet(app)).statusCode).toBe(200);
    await app.apiKeyUsage.flush();
    expect(writes).toEqual([{ ids: [key.id], written: [key.id] }]);
  });

  it('records a request refused by the rate limit: the key was used', async () => {
    const limited = await createApiKey(database.db, { organizationId, environment: 'live', rateLimitPerMinute: 1 });
    const app = await build();
    expect((await wallet(app, limited.secret)).statusCode).toBe(200);
    await app.apiKeyUsage.flush();
    clock.advance(60_001);
    // Still within the limiter's real-time window, so refused; the key's use is recorded all the same.
    expect((await wallet(app, limited.secret)).statusCode).toBe(429);
    await app.apiKeyUsage.flush();
    expect(await lastUsedAt(limited.id)).toBe('2026-03-02T09:01:00.001Z');
  });

  it('answers without waiting for the write, and writes once the write can go on', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const record = countedTouch(database.db);
    const app = await build({
      recordApiKeyUses: async (ids, now, intervalMs) => {
        await held;
        return record(ids, now, intervalMs);
      },
    });
    const other = await createApiKey(database.db, { organizationId, environment: 'test' });
    expect((await wallet(app)).statusCode).toBe(200);
    expect((await wallet(app, other.secret)).statusCode).toBe(200);
    expect((await wallet(app)).statusCode).toBe(200);
    expect(writes).toEqual([]);
    expect(await lastUsedAt()).toBeNull();

    release();
    await app.apiKeyUsage.flush();
    expect(writes.flatMap((write) => write.written).sort()).toEqual([key.id, other.id].sort());
    expect(await lastUsedAt(other.id)).toBe('2026-03-02T09:00:00.000Z');
  });

  it('writes what is pending when the app closes, before the hooks added after it (server.ts closes the database there)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const record = countedTouch(database.db);
    const app = buildApp(
      {
        database: database.handle,
        now: clock.now,
        recordApiKeyUses: async (ids, now, intervalMs) => {
          await held;
          return record(ids, now, intervalMs);
        },
      },
      loadBackendApiConfig({
        LOG_LEVEL: 'silent',
        IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
        VERIFICATION_EXPIRY_INTERVAL_MS: '0',
        WEBHOOK_DELIVERY_ENABLED: 'false',
      }),
    );
    let atDatabaseClose: string | null | undefined;
    app.addHook('onClose', async () => {
      atDatabaseClose = await lastUsedAt();
    });
    await app.ready();
    expect((await wallet(app)).statusCode).toBe(200);
    const closing = app.close();
    release();
    await closing;
    expect(atDatabaseClose).toBe('2026-03-02T09:00:00.000Z');
  });

  it('keeps answering while the database refuses the write, and logs it once at warn without the secret', async () => {
    const lines: string[] = [];
    const app = await build({
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
      recordApiKeyUses: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    });
    const other = await createApiKey(database.db, { organizationId, environment: 'test' });
    expect((await wallet(app)).statusCode).toBe(200);
    await app.apiKeyUsage.flush();
    expect((await wallet(app, other.secret)).statusCode).toBe(200);
    await app.apiKeyUsage.flush();

    const warnings = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([
      'Could not record when API keys were last used (requests are not affected; retried on a later use)',
    ]);
    const all = lines.join('\n');
    expect(all).not.toContain(key.secret);
    expect(all).not.toContain(other.secret);
    expect(await lastUsedAt()).toBeNull();
  });
});
