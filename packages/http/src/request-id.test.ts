import { describe, expect, it } from 'vitest';
import { isAcceptableRequestId, requestIdFrom } from './request-id.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('accepts 1 to 128 visible ASCII characters', () => {
    expect(isAcceptableRequestId('a')).toBe(true);
    expect(isAcceptableRequestId('req_01HZ-abc.def:42')).toBe(true);
    expect(isAcceptableRequestId('x'.repeat(128))).toBe(true);
  });

  it('rejects empty, too long, spaces, control and non-ASCII characters', () => {
    expect(isAcceptableRequestId('')).toBe(false);
    expect(isAcceptableRequestId('x'.repeat(129))).toBe(false);
    expect(isAcceptableRequestId('a b')).toBe(false);
    expect(isAcceptableRequestId('a\nb')).toBe(false);
    expect(isAcceptableRequestId('ombi-ñ')).toBe(false);
    expect(isAcceptableRequestId(['a', 'b'])).toBe(false);
  });

  it("keeps the caller's id or makes a fresh UUID", () => {
    expect(requestIdFrom('abc-123')).toBe('abc-123');
    expect(requestIdFrom(undefined)).toMatch(uuid);
    expect(requestIdFrom('bad id')).toMatch(uuid);
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});
