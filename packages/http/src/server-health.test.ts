import { describe, expect, it } from 'vitest';
import { serverUnderTest } from './create-server-fixtures.js';

const { build } = serverUnderTest();

describe('health', () => {
  it('answers /healthz', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with every check when all pass', async () => {
    const { app } = build({ readinessChecks: { database: async () => {} }, optionalChecks: { redis: async () => {} } });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers /readyz with 503 naming the failed required checks, and logs why', async () => {
    const { app, logs } = build({
      readinessChecks: {
        database: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:5432');
        },
      },
      optionalChecks: { redis: async () => {} },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'service_unavailable',
      error: 'Service not ready: database unavailable',
    });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(logs.some((line) => line.check === 'database' && line.err?.message === 'ECONNREFUSED 127.0.0.1:5432')).toBe(
      true,
    );
  });

  it('stays ready (200, degraded) when only an optional check fails, reporting it and logging why', async () => {
    const { app, logs } = build({
      readinessChecks: { database: async () => {} },
      optionalChecks: {
        redis: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:6379');
        },
      },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(logs.some((line) => line.check === 'redis' && line.err?.message === 'ECONNREFUSED 127.0.0.1:6379')).toBe(
      true,
    );
  });

  it('documents the degraded answer in OpenAPI', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schema = document.paths['/readyz'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.status.anyOf.map((branch: { const: string }) => branch.const)).toEqual(['ok', 'degraded']);
    expect(JSON.stringify(schema.properties.checks)).toContain('unavailable');
  });

  it('counts a check that hangs as failed', async () => {
    // Short on purpose and safe on a loaded machine: the only check never settles, so nothing can beat the limit.
    const { app } = build({
      readinessTimeoutMs: 50,
      readinessChecks: { database: () => new Promise<void>(() => {}) },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('Service not ready: database unavailable');
  });
});
