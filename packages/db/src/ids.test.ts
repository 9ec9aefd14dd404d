import { describe, expect, it } from 'vitest';
import { isUuid, uuidPattern } from './ids.js';

describe('isUuid', () => {
  it.each([
    '6f7c1d2e-0000-4000-8000-000000000000',
    '6F7C1D2E-ABCD-1234-9ABC-DEF012345678',
    '00000000-0000-0000-0000-000000000000',
  ])('takes %s', (value) => expect(isUuid(value)).toBe(true));

  it.each([
    '',
    'x',
    '6f7c1d2e-0000-4000-8000-00000000000',
    '6f7c1d2e00004000800000000000000g',
    ' 6f7c1d2e-0000-4000-8000-000000000000',
    'urn:uuid:6f7c1d2e-0000-4000-8000-000000000000',
    42,
    null,
  ])('refuses %j', (value) => expect(isUuid(value)).toBe(false));

  it('is the pattern JSON schemas use', () => {
    expect(new RegExp(uuidPattern).test('6f7c1d2e-0000-4000-8000-000000000000')).toBe(true);
  });
});
