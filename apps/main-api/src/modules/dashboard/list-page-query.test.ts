import { createValidatorFactory } from '@platform/http';
import { describe, expect, it } from 'vitest';
import { given, listPageQuery, queryText } from './list-page-query.js';

// The list pages' query schema (docs/decisions.md#dashboard-pages) as the server's own validator checks a query string:
// a page's filters and what every list takes, each with its length, and nothing else.

const validatorOf = (schema: unknown) => createValidatorFactory()({})({ schema, httpPart: 'querystring' });
const query = listPageQuery({ status: queryText(32), from: queryText(40) });
const accepts = (value: Record<string, string>) => validatorOf(query)(value) === true;

describe('a list page query', () => {
  it("takes the page's own filters, the cursor, the language, the organization and the environment, all optional", () => {
    expect(accepts({})).toBe(true);
    expect(
      accepts({
        status: 'failed',
        from: '2026-03-01',
        cursor: 'c'.repeat(512),
        lang: 'sw',
        org: 'o'.repeat(64),
        env: 'live',
      }),
    ).toBe(true);
  });

  it('refuses a parameter neither the page nor the list declares, among them another page filter', () => {
    expect(accepts({ limit: '10' })).toBe(false);
    expect(accepts({ notice: 'saved' })).toBe(false);
    expect(validatorOf(listPageQuery({ notice: queryText(32) }))({ notice: 'saved', cursor: 'c' })).toBe(true);
  });

  it('holds each field to its length: a filter to its own, the shared ones to theirs', () => {
    expect(accepts({ status: 's'.repeat(33) })).toBe(false);
    expect(accepts({ from: 'f'.repeat(41) })).toBe(false);
    expect(accepts({ cursor: 'c'.repeat(513) })).toBe(false);
    expect(accepts({ lang: 'kiswahili' })).toBe(false);
    expect(accepts({ org: 'o'.repeat(65) })).toBe(false);
    expect(accepts({ env: 'production' })).toBe(false);
  });

  it('keeps the shared fields whatever a page names its own', () => {
    const overridden = validatorOf(listPageQuery({ cursor: queryText(4096) }));
    expect(overridden({ cursor: 'c'.repeat(513) })).toBe(false);
  });

  it('reads a filter trimmed, and a missing or blank one as not given', () => {
    expect(given('  failed ')).toBe('failed');
    expect(given('   ')).toBeUndefined();
    expect(given(undefined)).toBeUndefined();
  });
});
