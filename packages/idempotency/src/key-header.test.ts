import { isAppError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { readIdempotencyKey } from './key-header.js';

function rejection(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('Expected the key to be rejected');
}

describe('readIdempotencyKey', () => {
  it('returns undefined when no key is sent, so the request simply runs', () => {
    expect(readIdempotencyKey({})).toBeUndefined();
  });

  it.each([
    ['a UUID', '5f0c1a9e-7b1d-4d2a-9c55-0e1f2a3b4c5d'],
    ['one character', 'k'],
    ['255 characters', 'k'.repeat(255)],
    ['every visible ASCII character', '!"#$%&\'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~'],
  ])('accepts %s', (_label, key) => {
    expect(readIdempotencyKey({ 'x-idempotency-key': key })).toBe(key);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['containing a space', 'order 42'],
    ['containing a tab', 'order\t42'],
    ['not ASCII', 'clé-42'],
    ['containing DEL', 'key\u007f'],
  ])('rejects a key that is %s with a 400 validation error naming the header', (_label, key) => {
    const error = rejection(() => readIdempotencyKey({ 'x-idempotency-key': key }));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('validation_error');
    expect(error.message).toMatch(/^the x-idempotency-key header /);
    expect(error.details).toEqual([{ path: 'headers/x-idempotency-key', message: expect.any(String) }]);
  });

  it('rejects the header sent twice', () => {
    expect(rejection(() => readIdempotencyKey({ 'x-idempotency-key': ['a', 'b'] })).statusCode).toBe(400);
  });

  it('reads Idempotency-Key as well, and both with one value as one key', () => {
    expect(readIdempotencyKey({ 'idempotency-key': 'abc' })).toBe('abc');
    expect(readIdempotencyKey({ 'x-idempotency-key': 'abc', 'idempotency-key': 'abc' })).toBe('abc');
  });

  it('refuses both headers with different values', () => {
    const error = rejection(() => readIdempotencyKey({ 'x-idempotency-key': 'abc', 'idempotency-key': 'xyz' }));
    expect(error.statusCode).toBe(400);
    expect(error.details).toEqual([
      { path: 'headers/idempotency-key', message: expect.stringContaining('x-idempotency-key') },
    ]);
  });

  it('checks a key sent as Idempotency-Key as it checks x-idempotency-key', () => {
    const error = rejection(() => readIdempotencyKey({ 'idempotency-key': 'order 42' }));
    expect(error.details).toEqual([{ path: 'headers/idempotency-key', message: expect.any(String) }]);
  });
});
