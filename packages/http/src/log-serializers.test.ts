import { describe, expect, it } from 'vitest';
import { censorNestedCredentialHeaders } from './log-serializers.js';

const censor = censorNestedCredentialHeaders(new Set(['req', 'err']));

describe('censorNestedCredentialHeaders', () => {
  it('censors the credential headers a field holds, in a copy, keeping the other headers and fields', () => {
    const headers = { authorization: 'Bearer abc', cookie: 'sid=1', 'x-api-key': 'k', host: 'example.com' };
    const line = { msg: 'parser options', parserOptions: { headers, limit: 3 }, statusCode: 200 };
    expect(censor(line)).toEqual({
      msg: 'parser options',
      parserOptions: {
        headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]', host: 'example.com' },
        limit: 3,
      },
      statusCode: 200,
    });
    // The logged objects are the caller's: they stay as they were.
    expect(line.parserOptions.headers.authorization).toBe('Bearer abc');
    expect(headers.cookie).toBe('sid=1');
  });

  it('keeps the prototype of what it copies, as pino does (null-prototype headers included)', () => {
    const headers = Object.assign(Object.create(null) as Record<string, string>, { authorization: 'Bearer abc' });
    class Options {
      headers = headers;
      toJSON() {
        return { headers: this.headers, kind: 'options' };
      }
    }
    const censored = censor({ options: new Options() }) as { options: Options };
    expect(censored.options).toBeInstanceOf(Options);
    expect(JSON.parse(JSON.stringify(censored.options))).toEqual({
      headers: { authorization: '[redacted]' },
      kind: 'options',
    });
  });

  it('returns an ordinary line itself, and leaves the fields serializers write and other shapes alone', () => {
    const ordinary = { method: 'GET', url: '/v1/accounts/me', statusCode: 200, responseTime: 1.5 };
    expect(censor(ordinary)).toBe(ordinary);
    const request = { headers: { authorization: 'Bearer abc' } };
    const untouched = {
      req: request,
      list: [{ headers: { authorization: 'Bearer abc' } }],
      text: { headers: 'authorization: Bearer abc' },
      inherited: Object.create({ headers: { authorization: 'Bearer abc' } }) as object,
    };
    expect(censor(untouched)).toBe(untouched);
  });
});
