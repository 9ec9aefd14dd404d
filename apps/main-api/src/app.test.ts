import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertUser, type TestApp } from '../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
});
afterAll(async () => {
  await t?.close();
});

describe('operations routes', () => {
  it('reports ready when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('echoes the request id and sets security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'req-123' } });
    expect(response.headers['x-request-id']).toBe('req-123');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI document', () => {
  it('documents every route with its shared schemas and the bearer scheme', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/accounts/me',
        '/v1/notifications',
        '/v1/notifications/read-all',
        '/v1/notifications/{id}/read',
        '/v1/auth/avatar',
      ]),
    );
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'AccountProfile',
        'Notification',
        'NotificationList',
        'SuccessOnly',
        'SuccessMessage',
        'ErrorEnvelope',
      ]),
    );
    expect(document.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    const getMe = document.paths['/v1/accounts/me'].get;
    expect(getMe.tags).toEqual(['accounts']);
    expect(getMe.security).toEqual([{ bearerAuth: [] }]);
    expect(getMe.summary).toEqual(expect.any(String));
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin without asking for a token', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/accounts/me',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(response.headers['access-control-allow-methods']).toContain('PATCH');
  });

  it('does not allow other origins', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('notification routes side by side', () => {
  it('routes read-all and :id/read to their own handlers', async () => {
    const userId = 'user_route_clash';
    await insertUser(t.db, { id: userId });
    const [first, second] = await t.db
      .insert(notifications)
      .values([
        { userId, title: 'A', message: 'a', type: 'info' },
        { userId, title: 'B', message: 'b', type: 'info' },
      ])
      .returning();

    const one = await t.app.inject({
      method: 'PATCH',
      url: `/v1/notifications/${first?.id}/read`,
      headers: await authHeader(userId),
    });
    expect(one.statusCode).toBe(200);
    const [stillUnread] = await t.db.select().from(notifications).where(eq(notifications.id, second!.id));
    expect(stillUnread?.readAt).toBeNull();

    const all = await t.app.inject({
      method: 'PATCH',
      url: '/v1/notifications/read-all',
      headers: await authHeader(userId),
    });
    expect(all.statusCode).toBe(200);
    const [nowRead] = await t.db.select().from(notifications).where(eq(notifications.id, second!.id));
    expect(nowRead?.readAt).not.toBeNull();
  });
});

describe('readiness without the database', () => {
  it('answers 503 naming the database', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    try {
      const response = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        code: 'service_unavailable',
        error: expect.stringContaining('database'),
      });
    } finally {
      await broken.close();
    }
  });
});
