// Sandbox and test-mode controls are off in the production configuration (OWASP API8): each service is built
// from the environment its Kubernetes Deployment gives it, then asked for what only a sandbox would do.
import { createApiKey } from '@platform/api-keys';
import { organizations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import { describe, expect, it } from 'vitest';
// The hosted page's own signer, so the posts below carry the token the page would put in its form.
import { formTokenFor } from '../../apps/backend-api/src/modules/verification/hosted-page/form-token.js';
import { productionEnvironment, templateEnvironment } from './manifest-environment.js';
import { placeholderNames } from './placeholders.js';
import { backendApi, mainApi } from './services.js';

describe('the production configuration', () => {
  it('does not start from the Secret template as it is: each placeholder is named, its value not shown', () => {
    for (const service of [mainApi, backendApi]) {
      const template = templateEnvironment(service);
      const placeholders = placeholderNames(template);
      expect(placeholders, service.name).toEqual(expect.arrayContaining(['DATABASE_URL', 'METRICS_TOKEN']));
      let message = '';
      try {
        service.loadConfig(template);
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      for (const name of placeholders) expect(message, service.name).toContain(`${name} still holds the REPLACE_ME`);
      expect(message, service.name).not.toContain('example.internal');
    }
  });

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
    // An invoice naming the sandbox's bank account would send a customer's transfer nowhere.
    const { SELLER_BANK_ACCOUNT_NUMBER: _account, ...withoutBankAccount } = environment;
    expect(() => mainApi.loadConfig(withoutBankAccount)).toThrow(/SELLER_BANK_ACCOUNT_NUMBER is required/);
  });

  it('runs backend-api without sandbox controls on live verification sessions', async () => {
    const environment = productionEnvironment(backendApi);
    expect(environment.HOSTED_PAGE_LIVE_SANDBOX).toBe('false');
    // A reviewer decides live sessions, and no rule can give them to the sandbox.
    expect(environment.VERIFICATION_DECISIONS).toBe('test:*=sandbox,live:*=manual');
    for (const rule of ['live:*=sandbox', 'live:kyc=sandbox', 'live:kyb=sandbox']) {
      expect(() => backendApi.loadConfig({ ...environment, VERIFICATION_DECISIONS: rule })).toThrow(
        /VERIFICATION_DECISIONS: .* needs HOSTED_PAGE_LIVE_SANDBOX=true/,
      );
    }
    // Identity documents go to a private bucket, under a key every replica shares; without the key it does not start.
    expect(environment).toMatchObject({ DOCUMENT_STORAGE: 's3', DOCUMENT_S3_BUCKET: expect.any(String) });
    expect(templateEnvironment(backendApi).DOCUMENT_ENCRYPTION_KEY).toMatch(/^REPLACE_ME:/);
    const { DOCUMENT_ENCRYPTION_KEY: _documentKey, ...withoutDocumentKey } = environment;
    expect(() => backendApi.loadConfig(withoutDocumentKey)).toThrow(/DOCUMENT_ENCRYPTION_KEY is required/);
    const formSecret = environment.HOSTED_PAGE_SECRET;
    if (formSecret === undefined) throw new Error('the production environment sets no HOSTED_PAGE_SECRET');
    const database = await createTestDatabase();
    const app = backendApi.build(environment, database);
    try {
      await app.ready();
      const [organization] = await database.db.insert(organizations).values({ name: 'Production Check' }).returning();
      if (organization === undefined) throw new Error('no organization');
      const createSession = async (environmentOfKey: 'live' | 'test') => {
        const { secret } = await createApiKey(database.db, {
          organizationId: organization.id,
          environment: environmentOfKey,
        });
        await database.db.transaction((tx) =>
          topUpWallet(
            tx,
            { organizationId: organization.id, environment: environmentOfKey },
            { amount: 1_000, reference: `production-check:${environmentOfKey}` },
          ),
        );
        const created = await app.inject({
          method: 'POST',
          url: '/v1/verify/sessions',
          headers: { 'x-service-api-key': secret },
          payload: { type: 'kyc', externalEndUserId: 'production-check' },
        });
        expect(created.statusCode).toBe(201);
        const { sessionId } = created.json<{ data: { sessionId: string } }>().data;
        return { sessionId, secret };
      };
      // A form post as the page itself would send it: the token is valid (signed with the deployment's secret),
      // so only the sandbox setting can refuse it.
      const sandboxAction = (sessionId: string, action: string) =>
        app.inject({
          method: 'POST',
          url: `/session/${sessionId}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ action, token: formTokenFor(formSecret, sessionId) }).toString(),
        });
      const statusOf = async (session: { sessionId: string; secret: string }) =>
        (
          await app.inject({
            method: 'GET',
            url: `/v1/verify/sessions/${session.sessionId}`,
            headers: { 'x-service-api-key': session.secret },
          })
        ).json<{ data: { status: string } }>().data.status;

      // The same post moves a test session, so the token is right and the app is the one under test.
      // Each person first agrees to the consent notice, which the page asks for before anything else.
      const test = await createSession('test');
      expect((await sandboxAction(test.sessionId, 'agree')).statusCode).toBe(303);
      expect((await sandboxAction(test.sessionId, 'submit')).statusCode).toBe(303);
      expect(await statusOf(test)).toBe('processing');

      const live = await createSession('live');
      expect((await sandboxAction(live.sessionId, 'agree')).statusCode).toBe(303);
      const page = await app.inject({ method: 'GET', url: `/session/${live.sessionId}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('id="session-status">Waiting for documents</p>');
      expect(page.body).not.toContain('Sandbox controls');
      for (const action of ['submit', 'approve', 'reject']) {
        expect((await sandboxAction(live.sessionId, action)).statusCode).toBe(303);
      }
      expect(await statusOf(live)).toBe('pending');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('leaves live sessions to a reviewer until a rule names Smile ID, which then runs on its production API', async () => {
    const environment = productionEnvironment(backendApi);
    expect(environment.VERIFICATION_DECISIONS).toBe('test:*=sandbox,live:*=manual');
    expect(environment.SMILE_ID_BASE_URL).toBe('https://api.smileidentity.com/v1');
    // Empty: results come back to VERIFY_URL's address, which the ingress routes to backend-api.
    expect(environment.SMILE_ID_CALLBACK_URL ?? '').toBe('');
    // The credentials come from the Secret (placeholders in its template).
    expect(templateEnvironment(backendApi).SMILE_ID_PARTNER_ID).toMatch(/^REPLACE_ME/);
    expect(templateEnvironment(backendApi).SMILE_ID_API_KEY).toMatch(/^REPLACE_ME/);

    // Opting live kyc sessions in is one rule; the start refuses it without either credential or over plain http.
    const withSmileId: NodeJS.ProcessEnv = {
      ...environment,
      VERIFICATION_DECISIONS: 'test:*=sandbox,live:kyc=smile_id,live:kyb=manual',
    };
    expect(() => backendApi.loadConfig(withSmileId)).not.toThrow();
    const { SMILE_ID_PARTNER_ID: _partner, ...withoutPartner } = withSmileId;
    expect(() => backendApi.loadConfig(withoutPartner)).toThrow(/SMILE_ID_PARTNER_ID is required/);
    const { SMILE_ID_API_KEY: _key, ...withoutKey } = withSmileId;
    expect(() => backendApi.loadConfig(withoutKey)).toThrow(/SMILE_ID_API_KEY is required/);
    expect(() =>
      backendApi.loadConfig({ ...withSmileId, SMILE_ID_BASE_URL: 'http://api.smileidentity.com/v1' }),
    ).toThrow(/SMILE_ID_BASE_URL must be https/);

    const database = await createTestDatabase();
    const app = backendApi.build(withSmileId, database);
    try {
      await app.ready();
      // Smile ID's results are taken, signed only: an unsigned one is refused.
      const unsigned = await app.inject({
        method: 'POST',
        url: '/v1/providers/smile-id/callback',
        headers: { 'content-type': 'application/json' },
        payload: { ResultCode: '0810', timestamp: new Date().toISOString() },
      });
      expect(unsigned.statusCode).toBe(401);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
