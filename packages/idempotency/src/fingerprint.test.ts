import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './fingerprint.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('leaves out undefined members as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('is JSON that parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('handles bodies nested deeper than the call stack allows', () => {
    const depth = 200_000;
    const nestedArrays = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(canonicalJson(nestedArrays)).toBe(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const nestedObjects = JSON.parse(`${'{"b":1,"a":'.repeat(depth)}null${'}'.repeat(depth)}`) as unknown;
    expect(canonicalJson(nestedObjects)).toBe(`${'{"a":'.repeat(depth)}null${',"b":1}'.repeat(depth)}`);
  });

  it('does not depend on the order keys were written in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
      }),
    );
  });
});

describe('requestFingerprint', () => {
  const base = { method: 'POST', route: '/v1/drive/folders', body: { name: 'Invoices', parentId: null } };

  it('names the method and route and hashes the request data', () => {
    expect(requestFingerprint(base)).toMatch(/^POST \/v1\/drive\/folders [0-9a-f]{64}$/);
  });

  it('is the same for the same body written in another key order', () => {
    expect(requestFingerprint({ ...base, body: { parentId: null, name: 'Invoices' } })).toBe(requestFingerprint(base));
  });

  it.each([
    ['another body', { body: { name: 'Receipts', parentId: null } }],
    ['another method', { method: 'PATCH' }],
    ['another route', { route: '/v1/verify/sessions' }],
    ['other path parameters', { params: { id: 'b' } }],
    ['another query', { query: { dryRun: true } }],
  ])('differs for %s', (_label, change) => {
    expect(requestFingerprint({ ...base, ...change })).not.toBe(requestFingerprint(base));
  });
});
