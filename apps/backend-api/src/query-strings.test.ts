import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../test/app-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../test/verification-fixtures.js';

// Query values are text and are read as their declared type only when written the ordinary way
// (docs/decisions.md#strict-validation; the shared validator in @platform/http does it for both services).

describe('query strings on backend-api', () => {
  const suite = useTestApp();
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'test', 1_000);
    for (const user of ['a', 'b', 'c']) {
      await createdSessionId(suite.app, acme.testKey, { type: 'kyc', externalEndUserId: user });
    }
  });

  const list = (query: string, path = '/v1/verify/sessions') =>
    suite.app.inject({ method: 'GET', url: `${path}?${query}`, headers: { 'x-service-api-key': acme.testKey } });

  it('reads limit written as a decimal integer', async () => {
    const response = await list('limit=2');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.sessions).toHaveLength(2);
    expect(response.json().data.nextCursor).toEqual(expect.any(String));
  });

  it.each(['0x2', '2e0', '1e1', '0b10', '%202', '2%20', '02', '+2', '2.0', '', 'Infinity'])(
    'GET /v1/verify/sessions?limit=%s is a 400 naming limit',
    async (limit) => {
      const response = await list(`limit=${limit}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'validation_error',
        error: 'limit must be a whole number from 1 to 100',
        details: [{ path: 'querystring/limit', message: 'must be a whole number from 1 to 100' }],
      });
    },
  );

  it('refuses limit sent twice', async () => {
    const response = await list('limit=2&limit=2');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: 'querystring/limit', message: 'must be a whole number from 1 to 100' },
    ]);
  });

  it('reads the drive folder list limit the same way', async () => {
    expect((await list('limit=5', '/v1/drive/folders')).statusCode).toBe(200);
    const response = await list('limit=0x5', '/v1/drive/folders');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: 'querystring/limit', message: 'must be a whole number from 1 to 100' },
    ]);
  });
});
