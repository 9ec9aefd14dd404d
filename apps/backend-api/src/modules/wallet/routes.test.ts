import { wallets } from '@platform/db/schema';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../../test/app-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../test/verification-fixtures.js';

describe('GET /v1/wallet', () => {
  const suite = useTestApp();
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme, globex] = await replaceOrganizations(suite.db, 'Acme', 'Globex');
  });

  const wallet = (key: string) =>
    suite.app.inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': key } });

  it("shows the key's environment's balances in whole KES", async () => {
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    await fundWallet(suite.db, acme.id, 'test', 300);
    await createdSessionId(suite.app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company' });

    const live = await wallet(acme.liveKey);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({
      success: true,
      data: { environment: 'live', currency: 'KES', available: 9_800, held: 200 },
    });
    expect((await wallet(acme.testKey)).json()).toEqual({
      success: true,
      data: { environment: 'test', currency: 'KES', available: 300, held: 0 },
    });
  });

  it("creates an organization's wallet on first look, empty, and never shows another organization's", async () => {
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    expect((await wallet(globex.liveKey)).json().data).toEqual({
      environment: 'live',
      currency: 'KES',
      available: 0,
      held: 0,
    });
    expect(await suite.db.$count(wallets)).toBe(2);
    expect((await wallet(globex.liveKey)).json().data.available).toBe(0);
    expect(await suite.db.$count(wallets)).toBe(2);
  });

  it('needs an API key', async () => {
    const response = await suite.app.inject({ method: 'GET', url: '/v1/wallet' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('unauthorized');
  });
});
