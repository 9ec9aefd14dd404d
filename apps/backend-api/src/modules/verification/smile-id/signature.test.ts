import smileIdentityCore from 'smile-identity-core';
import { describe, expect, it } from 'vitest';
import { isSmileIdSignature, smileIdSignature } from './signature.js';

const credentials = { partnerId: '2468', apiKey: 'an-api-key-from-the-portal' };
const timestamp = '2026-03-02T09:00:00.000Z';

describe('the Smile ID signature', () => {
  it('is the one the official Node SDK (smile-identity-core) computes', () => {
    const sdk = new smileIdentityCore.Signature(credentials.partnerId, credentials.apiKey);
    expect(smileIdSignature(credentials, timestamp)).toBe(sdk.generate_signature(timestamp).signature);
    expect(sdk.confirm_signature(timestamp, smileIdSignature(credentials, timestamp))).toBe(true);
  });

  it('accepts only the signature of that timestamp under that key', () => {
    const signature = smileIdSignature(credentials, timestamp);
    expect(isSmileIdSignature(credentials, timestamp, signature)).toBe(true);
    expect(isSmileIdSignature(credentials, '2026-03-02T09:00:01.000Z', signature)).toBe(false);
    expect(isSmileIdSignature({ ...credentials, apiKey: 'another-key' }, timestamp, signature)).toBe(false);
    expect(isSmileIdSignature({ ...credentials, partnerId: '1357' }, timestamp, signature)).toBe(false);
    for (const bad of [undefined, '', 42, 'not-base64!', signature.slice(4)]) {
      expect(isSmileIdSignature(credentials, timestamp, bad)).toBe(false);
    }
    expect(isSmileIdSignature(credentials, undefined, signature)).toBe(false);
  });
});
