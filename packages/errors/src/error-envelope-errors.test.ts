import { describe, expect, it } from 'vitest';
import { useEnvelopeApps } from '../test/envelope-app.js';
import { errorEnvelopeSchema } from './envelope-schema.js';

const { buildApp } = useEnvelopeApps();

describe('errorEnvelope: application errors', () => {
  it('renders an AppError with its status, code and message', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/profile/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: 'Profile not found',
      code: 'not_found',
      requestId: expect.any(String),
    });
  });

  it('sets the headers an AppError carries', async () => {
    const { app } = await buildApp();
    const me = await app.inject({ method: 'GET', url: '/me' });
    expect(me.statusCode).toBe(401);
    expect(me.headers['www-authenticate']).toBe('Bearer');
    expect(me.json()).toMatchObject({ code: 'unauthorized', error: 'Authentication required' });

    const idempotent = await app.inject({ method: 'POST', url: '/idempotent' });
    expect(idempotent.statusCode).toBe(409);
    expect(idempotent.headers['retry-after']).toBe('5');
    expect(idempotent.json().code).toBe('idempotency_key_in_use');
  });

  it('keeps the status and message of other client errors from plugins', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/teapot' });
    expect(response.statusCode).toBe(418);
    expect(response.json()).toMatchObject({ code: 'bad_request', error: 'I am a teapot' });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/nowhere?token=abc' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: 'Route GET /nowhere not found',
      code: 'not_found',
      requestId: expect.any(String),
    });
  });
});

describe('errorEnvelope: server faults', () => {
  it('hides a thrown Error behind a generic 500 and logs the cause with the request id', async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({
      success: false,
      error: 'Internal server error',
      code: 'internal_error',
      requestId: expect.any(String),
    });
    expect(response.body).not.toContain('hunter2');

    const logged = logs.find((line) => line.level === 50 && line.reqId === body.requestId);
    expect(logged?.err?.message).toBe('password=hunter2 at db.internal:5432');
    // The stack names the file whose route threw.
    expect(logged?.err?.stack).toContain('envelope-app.ts');
  });

  it("shows an internalError's own message but logs its cause", async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/profile' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ error: 'Failed to fetch profile', code: 'internal_error' });
    expect(response.body).not.toContain('relation');
    const logged = logs.find((line) => line.level === 50 && line.reqId === body.requestId);
    expect(JSON.stringify(logged)).toContain('relation \\"users\\" does not exist');
  });

  it('renders a provider outage as 503 provider_unavailable and logs it', async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/provider' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('provider_unavailable');
    expect(logs.some((line) => line.level === 50 && line.reqId === response.json().requestId)).toBe(true);
  });

  it('answers a lost or refused database connection with 503 service_unavailable and Retry-After, no internals', async () => {
    const { app, logs } = await buildApp();
    for (const url of ['/database-down', '/database-restarting']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({
        success: false,
        error: 'Service temporarily unavailable; retry shortly',
        code: 'service_unavailable',
        requestId: expect.any(String),
      });
      expect(response.body).not.toMatch(/wallets|10\.0\.0\.5|starting up/);
      expect(logs.some((line) => line.level === 50 && line.reqId === response.json().requestId)).toBe(true);
    }
  });

  it('turns 5xx errors from plugins into generic responses', async () => {
    const { app } = await buildApp();
    const badGateway = await app.inject({ method: 'GET', url: '/bad-gateway' });
    expect(badGateway.statusCode).toBe(500);
    expect(badGateway.json()).toMatchObject({ code: 'internal_error', error: 'Internal server error' });

    const unavailable = await app.inject({ method: 'GET', url: '/plugin-unavailable' });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ code: 'service_unavailable', error: 'Service temporarily unavailable' });
    expect(unavailable.body).not.toContain('pool');
  });

  it('answers in JSON even when the handler had set another content type', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/csv' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json().code).toBe('internal_error');
  });
});

describe('errorEnvelopeSchema', () => {
  it('is registered as a shared schema and matches what the handler sends', async () => {
    const { app } = await buildApp();
    expect(app.getSchema('ErrorEnvelope')).toEqual(errorEnvelopeSchema);
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { method: 'cash', amount: 1 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: '/method', message: 'must be card or mobile_money' }]);
  });
});
