import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createServer } from './create-server.js';
import { serverUnderTest, service } from './create-server-fixtures.js';

const { build, closesAfterTest } = serverUnderTest();

describe('security headers', () => {
  it('sets helmet headers, without upgrading local http requests', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('route registration', () => {
  it('refuses routes declared before the shared plugins load, which OpenAPI would miss', () => {
    const server = createServer({ service, logger: false });
    closesAfterTest(server);
    expect(() => server.get('/too-early', async () => ({}))).toThrow(/declare routes inside a plugin/);
  });

  it('refuses two different schemas with the same $id', async () => {
    const server = createServer({ service, logger: false });
    closesAfterTest(server);
    server.register(async (routes) => {
      routes.post('/a', { schema: { body: Type.Object({ a: Type.String() }, { $id: 'Clash' }) } }, async () => ({}));
      routes.post('/b', { schema: { body: Type.Object({ b: Type.String() }, { $id: 'Clash' }) } }, async () => ({}));
    });
    await expect(server.ready()).rejects.toThrow(/Two different schemas use the \$id 'Clash'/);
  });
});
