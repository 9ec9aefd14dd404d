import { describe, expect, it } from 'vitest';
import { preferredMediaType } from './content-negotiation.js';

describe('preferredMediaType', () => {
  const offered = ['application/json', 'text/csv'] as const;

  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['text/csv', 'text/csv'],
    ['TEXT/CSV', 'text/csv'],
    ['text/*', 'text/csv'],
    ['application/json, text/csv;q=0.5', 'application/json'],
    ['application/json;q=0.4, text/csv', 'text/csv'],
    ['application/xml', 'application/json'],
    ['text/csv;q=0', 'application/json'],
  ])('answers %s with %s', (accept, expected) => {
    expect(preferredMediaType(accept, offered)).toBe(expected);
  });
});
