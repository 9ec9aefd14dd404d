import { describe, expect, it } from 'vitest';
import { darajaPassword, darajaTimestamp } from './password.js';

describe('darajaTimestamp', () => {
  it('writes the moment in Nairobi time (UTC+3) as YYYYMMDDHHmmss', () => {
    expect(darajaTimestamp(new Date('2024-01-17T11:30:15.000Z'))).toBe('20240117143015');
    // Late evening UTC is already the next day in Nairobi, across a month and a year end.
    expect(darajaTimestamp(new Date('2023-12-31T22:05:09.999Z'))).toBe('20240101010509');
    expect(darajaTimestamp(new Date('2024-02-29T00:00:00.000Z'))).toBe('20240229030000');
  });
});

describe('darajaPassword', () => {
  it('is the base64 of shortcode, passkey and timestamp joined', () => {
    const password = darajaPassword('174379', 'passkey', '20240117143015');
    expect(Buffer.from(password, 'base64').toString('utf8')).toBe('174379passkey20240117143015');
  });
});
