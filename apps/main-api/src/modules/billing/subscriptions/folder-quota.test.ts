import { createApiKey } from '@platform/api-keys';
import { buildApp as buildBackendApp, loadBackendApiConfig } from '@platform/backend-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, startBillingApp } from '../../../../test/billing-fixtures.js';
import { insertSavedCard, insertSubscription } from '../../../../test/subscription-fixtures.js';

// The drive folder quota of backend-api follows the organization's mail plan: upgrading it through main-api
// raises the limit at once. Both services run on the same test database, as in production.

let t: BillingTestApp;
let backend: ReturnType<typeof buildBackendApp>;
let apiKey: string;

beforeAll(async () => {
  t = await startBillingApp();
  backend = buildBackendApp(
    { database: t.database, now: t.clock.now },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
      FOLDER_QUOTA_NONE: '1',
      FOLDER_QUOTA_CORE: '3',
      FOLDER_QUOTA_GROWTH: '5',
      FOLDER_QUOTA_SCALE: '8',
    }),
  );
  await backend.ready();
  apiKey = (await createApiKey(t.db, { organizationId: t.organizationId, environment: 'live' })).secret;
});
afterAll(async () => {
  await backend?.close();
  await t?.close();
});

async function createFolder(name: string) {
  return backend.inject({
    method: 'POST',
    url: '/v1/drive/folders',
    headers: { 'x-service-api-key': apiKey },
    payload: { name },
  });
}

describe('the folder quota follows the mail plan', () => {
  it('raises the limit when core is upgraded to growth', async () => {
    await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 10,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

    for (const name of ['one', 'two', 'three']) expect((await createFolder(name)).statusCode).toBe(201);
    const refused = await createFolder('four');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'quota_exceeded',
      error: expect.stringContaining('Upgrade to growth for 5'),
    });

    const upgraded = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/upgrade',
      headers: await t.headers(),
      payload: { newPlan: 'growth', newSeats: 10, newCycle: 'monthly', paymentMethodId: cardId },
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);

    for (const name of ['four', 'five']) expect((await createFolder(name)).statusCode).toBe(201);
    const full = await createFolder('six');
    expect(full.statusCode).toBe(403);
    expect(full.json().error).toContain('the growth plan allows 5 folders');
  });
});
