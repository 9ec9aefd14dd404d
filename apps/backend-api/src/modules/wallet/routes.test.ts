import { type DatabaseHandle, organizations, wallets } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, createTestOrganization, type TestOrganization, testClock } from '../../../test/drive-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../test/verification-fixtures.js';
import type { BackendApp } from '../../app.js';

describe('GET /v1/wallet', () => {
  let database: DatabaseHandle;
  let app: BackendApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  const clock = testClock();

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildTestApp(database, { now: clock.now });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    await truncateVerificationData(database.db);
    await database.db.delete(organizations);
    acme = await createTestOrganization(database.db, 'Acme');
    globex = await createTestOrganization(database.db, 'Globex');
  });

  const wallet = (key: string) => app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': key } });

  it("shows the key's environment's balances in whole KES", async () => {
    await fundWallet(database.db, acme.id, 'live', 10_000);
    await fundWallet(database.db, acme.id, 'test', 300);
    await createdSessionId(app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company' });

    const live = await wallet(acme.liveKey);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ success: true, data: { environment: 'live', currency: 'KES', available: 9_800, held: 200 } });
    expect((await wallet(acme.testKey)).json()).toEqual({
      success: true,
      data: { environment: 'test', currency: 'KES', available: 300, held: 0 },
    });
  });

  it("creates an organization's wallet on first look, empty, and never shows another organization's", async () => {
    await fundWallet(database.db, acme.id, 'live', 10_000);
    expect((await wallet(globex.liveKey)).json().data).toEqual({ environment: 'live', currency: 'KES', available: 0, held: 0 });
    expect(await database.db.$count(wallets)).toBe(2);
    expect((await wallet(globex.liveKey)).json().data.available).toBe(0);
    expect(await database.db.$count(wallets)).toBe(2);
  });

  it('needs an API key', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/wallet' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('unauthorized');
  });
});
