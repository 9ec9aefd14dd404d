// Sandbox and test-mode controls are off in the production configuration (OWASP API8): each service is built
// from the environment its Kubernetes Deployment gives it, then asked for what only a sandbox would do.
import { createApiKey, organizations, topUpWallet } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { describe, expect, it } from 'vitest';
import { productionEnvironment } from './manifest-environment.js';
import { backendApi, mainApi } from './services.js';

describe('the production configuration', () => {
  it('runs main-api with the real payment providers only: no sandbox checkout, no start without credentials', async () => {
    const environment = productionEnvironment(mainApi);
    expect(environment.PAYMENTS_SANDBOX_ALLOWED).toBe('false');
    const database = await createTestDatabase();
    const app = mainApi.build(environment, database);
    try {
      await app.ready();
      expect(app.hasRoute({ method: 'GET', url: '/v1/billing/sandbox/checkout/:reference' })).toBe(false);
      expect(app.hasRoute({ method: 'POST', url: '/v1/billing/webhooks/paystack' })).toBe(true);
      expect(app.hasRoute({ method: 'POST', url: '/v1/billing/webhooks/mpesa/:token' })).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
    const { PAYSTACK_SECRET_KEY: _card, ...withoutPaystack } = environment;
    expect(() => mainApi.loadConfig(withoutPaystack)).toThrow(/PAYSTACK_SECRET_KEY is required/);
    const { DARAJA_PASSKEY: _mpesa, ...withoutDaraja } = environment;
    expect(() => mainApi.loadConfig(withoutDaraja)).toThrow(/DARAJA_PASSKEY is required/);
  });

  it('runs backend-api without sandbox controls on live verification sessions', async () => {
    const environment = productionEnvironment(backendApi);
    const database = await createTestDatabase();
    const app = backendApi.build(environment, database);
    try {
      await app.ready();
      const [organization] = await database.db.insert(organizations).values({ name: 'Production Check' }).returning();
      if (organization === undefined) throw new Error('no organization');
      const { secret } = await createApiKey(database.db, { organizationId: organization.id, environment: 'live' });
      await database.db.transaction((tx) =>
        topUpWallet(tx, { organizationId: organization.id, environment: 'live' }, { amount: 1_000, reference: 'production-check' }),
      );
      const created = await app.inject({
        method: 'POST',
        url: '/v1/verify/sessions',
        headers: { 'x-service-api-key': secret },
        payload: { type: 'kyc', externalEndUserId: 'production-check' },
      });
      expect(created.statusCode).toBe(201);
      const { sessionId } = created.json().data as { sessionId: string };

      const page = await app.inject({ method: 'GET', url: `/session/${sessionId}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('Sandbox controls');
      const action = await app.inject({
        method: 'POST',
        url: `/session/${sessionId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ action: 'approve', token: 'x' }).toString(),
      });
      expect(action.statusCode).toBeLessThan(500);
      const after = await app.inject({
        method: 'GET',
        url: `/v1/verify/sessions/${sessionId}`,
        headers: { 'x-service-api-key': secret },
      });
      expect(after.json().data.status).toBe('pending');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
