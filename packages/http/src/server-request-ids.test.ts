import { describe, expect, it } from 'vitest';
import { serverUnderTest, uuid } from './create-server-fixtures.js';

const { build } = serverUnderTest();

describe('request ids', () => {
  it("echoes the caller's x-request-id and logs it", async () => {
    const { app, logs } = build();
    const response = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: {
        'x-request-id': 'req-abc.123',
        authorization: 'Bearer a-secret-token',
        'x-service-api-key': 'sk_live_secret',
      },
    });
    expect(response.headers['x-request-id']).toBe('req-abc.123');
    const lines = logs.filter((line) => line.reqId === 'req-abc.123');
    // One line per request, when it ends, with no headers: credentials never reach the logs.
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        method: 'GET',
        url: '/healthz',
        statusCode: 200,
        responseTime: expect.any(Number),
      }),
    ]);
    expect(Object.keys(lines[0] ?? {}).sort()).toEqual(
      ['hostname', 'level', 'method', 'msg', 'pid', 'reqId', 'responseTime', 'statusCode', 'time', 'url'].sort(),
    );
    expect(JSON.stringify(logs)).not.toMatch(/a-secret-token|sk_live_secret/);
  });

  it('generates a UUID when the header is missing', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-request-id']).toMatch(uuid);
  });

  it('replaces an unacceptable id', async () => {
    const { app } = build();
    const tooLong = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(tooLong.headers['x-request-id']).toMatch(uuid);
    const withSpace = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a b' } });
    expect(withSpace.headers['x-request-id']).toMatch(uuid);
  });

  it('puts the same id in the header and in error envelopes, including unknown routes', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-404' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-request-id']).toBe('trace-404');
    expect(response.json()).toEqual({
      success: false,
      error: 'Route GET /nope not found',
      code: 'not_found',
      requestId: 'trace-404',
    });
  });
});
