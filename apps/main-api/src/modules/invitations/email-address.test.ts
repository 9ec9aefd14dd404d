import { describe, expect, it } from 'vitest';
import { invitationAddress } from './email-address.js';

describe('invitationAddress', () => {
  it.each(['colleague@example.com', 'Jane.Doe+team@Mail.Example.co.ke', "o'brien@example.org", 'jö@bücher.example'])(
    'keeps %s as written',
    (address) => {
      expect(invitationAddress(address)).toBe(address);
    },
  );

  it('trims surrounding blanks', () => {
    expect(invitationAddress('  Ann@Example.com ')).toBe('Ann@Example.com');
  });

  it.each([
    'colleague',
    '@example.com',
    'colleague@',
    'colleague@localhost',
    'a@b@example.com',
    'two words@example.com',
    'a@example.com, b@example.com',
    'Name <a@example.com>',
    'a@example.com\r\nBcc: b@example.com',
    'a@example..com',
    'a@.example.com',
    `${'l'.repeat(65)}@example.com`,
  ])('refuses %j', (value) => {
    expect(invitationAddress(value)).toEqual({ problem: expect.stringContaining('must be an email address') });
  });

  it('refuses more than 320 characters', () => {
    expect(invitationAddress(`a@${'d'.repeat(320)}.example`)).toEqual({
      problem: 'must be at most 320 characters',
    });
  });
});
