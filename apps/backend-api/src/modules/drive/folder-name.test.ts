import { isAppError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { normaliseFolderName } from './folder-name.js';

describe('normaliseFolderName', () => {
  it.each([
    ['  Invoices  ', 'Invoices'],
    ['\tReports 2026\n', 'Reports 2026'],
    ['Ünïcödé 📁', 'Ünïcödé 📁'],
    ['a.b-c_d (1)', 'a.b-c_d (1)'],
  ])('keeps %j as %j', (raw, name) => {
    expect(normaliseFolderName(raw)).toBe(name);
  });

  it('counts characters, not UTF-16 units: 255 emoji fit', () => {
    const name = '📁'.repeat(255);
    expect(normaliseFolderName(name)).toBe(name);
    expect(() => normaliseFolderName(`${name}x`)).toThrow(/at most 255 characters/);
  });

  it.each([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['x'.repeat(256), 'must be at most 255 characters'],
    ['a/b', 'must not contain "/"'],
  ])('refuses %j: %s', (raw, problem) => {
    try {
      normaliseFolderName(raw);
      expect.unreachable('the name should be refused');
    } catch (error) {
      expect(isAppError(error) && error.code).toBe('validation_error');
      expect(isAppError(error) && error.details).toEqual([{ path: '/name', message: problem }]);
    }
  });
});
