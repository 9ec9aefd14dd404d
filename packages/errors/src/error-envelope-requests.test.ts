import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { multipartBody, useEnvelopeApps } from '../test/envelope-app.js';
import { errorEnvelope } from './error-envelope-plugin.js';

const { buildApp, closeAfterTest } = useEnvelopeApps();

describe('errorEnvelope: validation', () => {
  it('returns 400 validation_error with a readable sentence and details', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { method: 'card', amount: 'abc' } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual({
      success: false,
      error: 'amount must be a whole number',
      code: 'validation_error',
      requestId: expect.any(String),
      details: [{ path: '/amount', message: 'must be a whole number' }],
    });
  });

  it('names a missing property by its path', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { amount: 10 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'method is required',
      details: [{ path: '/method', message: 'is required' }],
    });
  });

  it('names a query parameter by its name, and its path by the part', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/upgrade-preview?newSeats=0' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      error: 'newSeats must be at least 1',
      details: [{ path: 'querystring/newSeats', message: 'must be at least 1' }],
    });
  });
});

describe('errorEnvelope: request body errors', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/json' },
      payload: '{"method": "card",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'invalid_json',
      error: 'Request body is not valid JSON',
    });
  });

  it('answers an empty JSON body with 400 invalid_json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_json');
  });

  it('answers a body over the limit with 413 payload_too_large naming the limit', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/small', payload: { note: 'x'.repeat(200) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      error: 'Request body is larger than the limit of 64 bytes',
    });
  });

  it('answers an unsupported content type with 415 unsupported_media_type', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/xml' },
      payload: '<payment/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'Unsupported Content-Type application/xml',
    });
  });

  it('says a body without a Content-Type lacks one', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: Buffer.from('{}') });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'The request has a body but no Content-Type header',
    });
  });
});

describe('errorEnvelope: multipart and rate limit errors', () => {
  it('answers a file over the size limit with 413', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/avatar',
      ...multipartBody([{ name: 'file', content: 'x'.repeat(50) }]),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: 'Uploaded file is too large' });
  });

  it('answers too many files with 413', async () => {
    const { app } = await buildApp();
    const body = multipartBody([
      { name: 'a', content: 'x' },
      { name: 'b', content: 'y' },
    ]);
    const response = await app.inject({ method: 'POST', url: '/attachments', ...body });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: 'Too many files in the request' });
  });

  it('answers a non-multipart upload with 415', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/avatar', payload: { file: 'nope' } });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'Request must be multipart/form-data',
    });
  });

  it('answers a rate-limited request with 429 rate_limited and keeps Retry-After', async () => {
    const instance = Fastify({ logger: false });
    await instance.register(errorEnvelope);
    await instance.register(rateLimit, { max: 1, timeWindow: 60_000 });
    instance.get('/limited', async () => ({ success: true }));
    closeAfterTest(instance);
    expect((await instance.inject({ method: 'GET', url: '/limited' })).statusCode).toBe(200);
    const response = await instance.inject({ method: 'GET', url: '/limited' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.json()).toMatchObject({
      success: false,
      code: 'rate_limited',
      error: expect.stringContaining('Rate limit exceeded'),
    });
  });
});
