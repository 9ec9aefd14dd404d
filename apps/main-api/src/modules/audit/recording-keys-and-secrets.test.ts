import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING, DEVELOPER, MEMBER, useAuditApp } from '../../../test/audit-fixtures.js';
import { PAYER_ID } from '../../../test/billing-fixtures.js';

// What the audit log records of API keys and webhook endpoints, and that it never holds a secret the routes
// showed.

const setup = useAuditApp();
const { send, allEvents, recordedBy, madeBy } = setup;
/** Every secret the tests were shown: none may be in the audit log. */
const secretsShown: string[] = [];

describe('API keys', () => {
  it('records a creation and a revocation, once each, by the developer who made them', async () => {
    let created!: Awaited<ReturnType<typeof send>>;
    const creation = await recordedBy(async () => {
      created = await send(DEVELOPER, 'POST', '/v1/api-keys', { environment: 'live', name: 'Server' });
      expect(created.statusCode, created.body).toBe(201);
    });
    const key = created.json<{ data: { id: string; secret: string; lastFour: string } }>().data;
    secretsShown.push(key.secret);
    expect(creation).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, created),
        organizationId: setup.t.organizationId,
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: key.id,
        details: {
          name: 'Server',
          environment: 'live',
          prefix: 'sk_live_',
          lastFour: key.lastFour,
          rateLimitPerMinute: null,
          permissions: [],
        },
      }),
    ]);

    let revoked!: Awaited<ReturnType<typeof send>>;
    const revocation = await recordedBy(async () => {
      revoked = await send(DEVELOPER, 'DELETE', `/v1/api-keys/${key.id}`);
      expect(revoked.statusCode).toBe(200);
    });
    expect(revocation).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, revoked),
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: key.id,
      }),
    ]);

    // Revoking it again succeeds but changes nothing, so it records nothing.
    const again = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'DELETE', `/v1/api-keys/${key.id}`)).statusCode).toBe(200);
    });
    expect(again).toEqual([]);
  });

  it('records nothing for a refused or failed change', async () => {
    const events = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'POST', '/v1/api-keys', { environment: 'live', name: ' ' })).statusCode).toBe(400);
      expect((await send(BILLING, 'POST', '/v1/api-keys', { environment: 'live' })).statusCode).toBe(403);
      expect((await send(DEVELOPER, 'DELETE', `/v1/api-keys/${randomUUID()}`)).statusCode).toBe(404);
      expect((await send(MEMBER, 'DELETE', `/v1/api-keys/${randomUUID()}`)).statusCode).toBe(403);
    });
    expect(events).toEqual([]);
  });
});

describe('webhook endpoints and their secrets', () => {
  it('records the default URL set and cleared, without its query string', async () => {
    let set!: Awaited<ReturnType<typeof send>>;
    let cleared!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      set = await send(DEVELOPER, 'PUT', '/v1/webhooks/endpoints/test', {
        defaultUrl: 'https://hooks.example.com/callback?token=receiver-token-1234',
      });
      expect(set.statusCode, set.body).toBe(200);
      cleared = await send(DEVELOPER, 'PATCH', '/v1/webhooks/endpoints/test', { defaultUrl: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
    });
    secretsShown.push('receiver-token-1234');
    const change = { action: 'webhook_endpoint.updated', targetType: 'webhook_endpoint', targetId: 'test' };
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ...madeBy(DEVELOPER, set),
          ...change,
          details: { environment: 'test', defaultUrl: 'https://hooks.example.com/callback' },
        }),
        expect.objectContaining({
          ...madeBy(DEVELOPER, cleared),
          ...change,
          details: { environment: 'test', defaultUrl: null },
        }),
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it('records that a secret was revealed and rotated, never the secret, and nothing for a refused reveal', async () => {
    let revealed!: Awaited<ReturnType<typeof send>>;
    const reveal = await recordedBy(async () => {
      revealed = await send(DEVELOPER, 'POST', '/v1/webhooks/endpoints/live/secret/reveal');
      expect(revealed.statusCode, revealed.body).toBe(200);
    });
    secretsShown.push(revealed.json<{ data: { secret: string } }>().data.secret);
    expect(reveal).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, revealed),
        action: 'webhook_secret.revealed',
        targetType: 'webhook_endpoint',
        targetId: 'live',
        details: { environment: 'live' },
      }),
    ]);

    const refused = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'POST', '/v1/webhooks/endpoints/live/secret/reveal')).statusCode).toBe(409);
      expect((await send(BILLING, 'POST', '/v1/webhooks/endpoints/live/secret/rotate')).statusCode).toBe(403);
      expect((await send(MEMBER, 'PUT', '/v1/webhooks/endpoints/live', { defaultUrl: null })).statusCode).toBe(403);
      expect(
        (await send(DEVELOPER, 'PUT', '/v1/webhooks/endpoints/live', { defaultUrl: 'http://10.0.0.1/x' })).statusCode,
      ).toBe(400);
    });
    expect(refused).toEqual([]);

    let rotated!: Awaited<ReturnType<typeof send>>;
    const rotation = await recordedBy(async () => {
      rotated = await send(PAYER_ID, 'POST', '/v1/webhooks/endpoints/live/secret/rotate');
      expect(rotated.statusCode, rotated.body).toBe(200);
    });
    const { secret, previousSecretExpiresAt } = rotated.json<{
      data: { secret: string; previousSecretExpiresAt: string };
    }>().data;
    secretsShown.push(secret);
    expect(rotation).toEqual([
      expect.objectContaining({
        ...madeBy(PAYER_ID, rotated),
        action: 'webhook_secret.rotated',
        targetType: 'webhook_endpoint',
        targetId: 'live',
        details: { environment: 'live', previousSecretExpiresAt },
      }),
    ]);
  });
});

describe('the whole log', () => {
  it('holds none of the secrets the routes showed', async () => {
    expect(secretsShown.length).toBeGreaterThanOrEqual(4);
    const log = JSON.stringify(await allEvents());
    for (const secret of secretsShown) expect(log).not.toContain(secret);
  });
});
