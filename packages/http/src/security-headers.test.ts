import { describe, expect, it } from 'vitest';
import { securityHeadersFor } from './security-headers.js';

describe('securityHeadersFor', () => {
  it('gives the headers helmet sets for the options', () => {
    const headers = securityHeadersFor({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('leaves out what the options turn off', () => {
    const headers = securityHeadersFor({ contentSecurityPolicy: false, frameguard: false });
    expect(headers).not.toHaveProperty('content-security-policy');
    expect(headers).not.toHaveProperty('x-frame-options');
    expect(headers).toHaveProperty('x-content-type-options', 'nosniff');
  });

  it('refuses options helmet refuses, at start rather than on a request', () => {
    expect(() => securityHeadersFor({ contentSecurityPolicy: { directives: { 'default-src': ['self'] } } })).toThrow();
  });
});
