import { unauthorized } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { serverUnderTest } from './create-server-fixtures.js';

const { build } = serverUnderTest();

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document built from the routes', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'test-service', version: '1.2.3', description: 'Service under test' });
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/v1/payments', '/v1/upgrade/preview']),
    );
    expect(document.paths['/openapi.json']).toBeUndefined();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/docs'))).toBe(false);
  });

  it('lists $id schemas as components and references them', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorEnvelope', 'PaymentBody', 'SuccessMessage', 'SuccessOnly']),
    );
    const payment = document.paths['/v1/payments'].post;
    expect(payment.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaymentBody',
    });
    expect(payment.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SuccessMessage',
    });
    expect(payment.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(payment.responses['default'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    const readAll = document.paths['/v1/notifications/read-all'].patch;
    expect(readAll.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SuccessOnly',
    });
  });

  it('documents query parameters inline', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/upgrade/preview'].get.parameters as Array<{ name: string; in: string }>;
    expect(parameters.map((parameter) => [parameter.in, parameter.name])).toEqual([
      ['query', 'newSeats'],
      ['query', 'limit'],
    ]);
  });

  it('serves Swagger UI at /docs with its assets and a policy that lets it run', async () => {
    const { app } = build();
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).toContain('<title>test-service API</title>');
    expect(page.headers['content-security-policy']).toContain("style-src 'self' https: 'unsafe-inline'");

    for (const asset of [
      '/docs/static/swagger-ui-bundle.js',
      '/docs/static/swagger-ui.css',
      '/docs/static/swagger-initializer.js',
    ]) {
      const response = await app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.body.length, asset).toBeGreaterThan(100);
    }
    const json = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json().openapi).toBe('3.1.0');
  });

  it('marks docs, OpenAPI and probes as public routes', async () => {
    const { app } = build();
    // What a service's authentication hook does: only public routes pass without credentials.
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public !== true && request.routeOptions.url !== undefined) throw unauthorized();
    });
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/static/swagger-ui.css', '/docs/json']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ method: 'PATCH', url: '/v1/notifications/read-all' })).statusCode).toBe(401);
  });
});
