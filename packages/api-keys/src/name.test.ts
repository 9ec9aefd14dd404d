import { describe, expect, it } from 'vitest';
import { normaliseApiKeyName } from './name.js';

describe('normaliseApiKeyName', () => {
  it('names a key "Default" when no name is given, and trims the one given', () => {
    expect(normaliseApiKeyName(undefined)).toBe('Default');
    expect(normaliseApiKeyName('  Production server ')).toBe('Production server');
  });

  it('counts code points, so 100 emoji fit', () => {
    expect(normaliseApiKeyName('\u{1F511}'.repeat(100))).toBe('\u{1F511}'.repeat(100));
    expect(normaliseApiKeyName('k'.repeat(101))).toEqual({ problem: 'must be 1-100 characters after trimming spaces' });
  });

  it.each(['', '   ', 'tab\there', 'bell\u0007'])('refuses %j', (name) => {
    expect(normaliseApiKeyName(name)).toMatchObject({ problem: expect.any(String) });
  });
});
