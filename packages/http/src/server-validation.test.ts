import { describe, expect, it } from 'vitest';
import { serverUnderTest } from './create-server-fixtures.js';

const { build } = serverUnderTest();

describe('validation', () => {
  it('does not coerce body values: "100" is not an integer', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: '100', method: 'card' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: 'amount must be a whole number of at least 0',
      details: [{ path: '/amount', message: 'must be a whole number of at least 0' }],
    });
  });

  it('reports every failed rule', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: -1, method: 'cash', email: 'nope', dob: '2023-02-30' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: '/amount', message: 'must be a whole number of at least 0' },
      { path: '/method', message: 'must be card or mobile_money' },
      { path: '/email', message: 'must be an email address' },
      { path: '/dob', message: 'must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31' },
    ]);
    expect(response.json().error).toBe(
      'amount must be a whole number of at least 0; method must be card or mobile_money; email must be an email ' +
        'address; dob must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31',
    );
  });

  it('keeps unknown body fields rather than stripping or rejecting them', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: 100, method: 'card', note: 'x' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'keys: amount,method,note' });
  });

  it('coerces querystring values and applies their defaults', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/upgrade/preview?newSeats=10' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ newSeats: 10, limit: 20, type: 'number' });
  });

  it('names the querystring in its failures', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/upgrade/preview?newSeats=ten' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'newSeats must be a whole number of at least 1',
      details: [{ path: 'querystring/newSeats', message: 'must be a whole number of at least 1' }],
    });
  });

  it('coerces path params', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/items/7' });
    expect(response.json()).toEqual({ position: 7, type: 'number' });
    const bad = await app.inject({ method: 'GET', url: '/v1/items/seven' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'position must be a whole number',
      details: [{ path: 'params/position', message: 'must be a whole number' }],
    });
  });

  it('does not coerce headers', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/counted', headers: { 'x-count': '5' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'the x-count header must be a whole number',
      details: [{ path: 'headers/x-count', message: 'must be a whole number' }],
    });
  });
});
