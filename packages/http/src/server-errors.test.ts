import { describe, expect, it } from 'vitest';
import { serverUnderTest } from './create-server-fixtures.js';

const { build } = serverUnderTest();

describe('error envelope', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { 'content-type': 'application/json' },
      payload: '{"amount": 1',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_json', requestId: response.headers['x-request-id'] });
  });

  it('reads an empty JSON body as no body: bodiless routes work, routes that need one refuse it', async () => {
    const { app } = build();
    const headers = { 'content-type': 'application/json' };
    const bodiless = await app.inject({ method: 'PATCH', url: '/v1/notifications/read-all', headers, payload: '' });
    expect(bodiless.statusCode).toBe(200);
    const needsBody = await app.inject({ method: 'POST', url: '/v1/payments', headers, payload: '' });
    expect(needsBody.statusCode).toBe(400);
    expect(needsBody.json()).toMatchObject({ code: 'validation_error' });
  });

  it('answers a body over the configured limit with 413', async () => {
    const { app } = build({ bodyLimit: 100 });
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: 1, method: 'card', pad: 'x'.repeat(200) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      error: 'Request body is larger than the limit of 100 bytes',
    });
  });

  it('answers an unsupported content type with 415', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=1',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('hides a thrown Error behind a generic 500 and logs the cause with the request id', async () => {
    const { app, logs } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/boom', headers: { 'x-request-id': 'trace-500' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      error: 'Internal server error',
      code: 'internal_error',
      requestId: 'trace-500',
    });
    expect(response.body).not.toContain('10.1.2.3');
    const logged = logs.find((line) => line.level === 50 && line.reqId === 'trace-500');
    expect(logged?.err?.message).toBe('connection to 10.1.2.3 refused');
  });

  it('sets the headers an AppError carries', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/private' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json().code).toBe('unauthorized');
  });

  it('answers a malformed URL with the envelope', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'GET',
      url: '/v1/items/%E0%A4%A',
      headers: { 'x-request-id': 'trace-url' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['x-request-id']).toBe('trace-url');
    expect(response.json()).toEqual({
      success: false,
      error: 'Request URL is malformed',
      code: 'bad_request',
      requestId: 'trace-url',
    });
  });
});
