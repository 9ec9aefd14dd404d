import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKeySecret } from './secret.js';

describe('generateApiKey', () => {
  it.each(['live', 'test'] as const)('makes a %s secret from 32 random bytes, its hash, last four', (environment) => {
    const key = generateApiKey(environment);
    expect(key.secret).toMatch(new RegExp(`^sk_${environment}_[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(key.secret.slice(`sk_${environment}_`.length), 'base64url')).toHaveLength(32);
    expect(key.secretHash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(key.lastFour).toBe(key.secret.slice(-4));
  });

  it('never repeats a secret', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => generateApiKey('test').secret));
    expect(secrets.size).toBe(200);
  });

  it('hashes to 64 lowercase hex characters', () => {
    expect(hashApiKeySecret('sk_test_abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKeySecret('sk_test_abc')).not.toBe(hashApiKeySecret('sk_test_abd'));
  });
});
