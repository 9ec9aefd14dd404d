import { describe, expect, it } from 'vitest';
import { locationOf, summarizeValidation } from './validation-details.js';

describe('locationOf', () => {
  it('writes body locations as JSON pointers and prefixes the other parts', () => {
    expect(locationOf('body', '/amount')).toBe('/amount');
    expect(locationOf('body', '')).toBe('/');
    expect(locationOf('querystring', '/newSeats')).toBe('querystring/newSeats');
    expect(locationOf('headers', '/x-organization-id')).toBe('headers/x-organization-id');
  });
});

describe('summarizeValidation', () => {
  it('points a missing property at the property itself', () => {
    const summary = summarizeValidation('body', [
      {
        instancePath: '',
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'method' },
        message: "must have required property 'method'",
      },
    ]);
    expect(summary.details).toEqual([{ path: '/method', message: "must have required property 'method'" }]);
    expect(summary.message).toBe("body must have required property 'method'");
  });

  it('folds a union of literals into one "must be one of" message', () => {
    const summary = summarizeValidation('body', [
      {
        instancePath: '/method',
        schemaPath: '#/properties/method/anyOf/0/const',
        keyword: 'const',
        params: { allowedValue: 'card' },
        message: 'must be equal to constant',
      },
      {
        instancePath: '/method',
        schemaPath: '#/properties/method/anyOf/1/const',
        keyword: 'const',
        params: { allowedValue: 'mobile_money' },
        message: 'must be equal to constant',
      },
      {
        instancePath: '/method',
        schemaPath: '#/properties/method/anyOf',
        keyword: 'anyOf',
        params: {},
        message: 'must match a schema in anyOf',
      },
    ]);
    expect(summary.details).toEqual([{ path: '/method', message: 'must be one of: card, mobile_money' }]);
    expect(summary.message).toBe('body/method must be one of: card, mobile_money');
  });

  it('folds a union of types into "must be A or B"', () => {
    const summary = summarizeValidation('body', [
      {
        instancePath: '/actionUrl',
        schemaPath: '#/properties/actionUrl/anyOf/0/type',
        keyword: 'type',
        params: { type: 'string' },
        message: 'must be string',
      },
      {
        instancePath: '/actionUrl',
        schemaPath: '#/properties/actionUrl/anyOf/1/type',
        keyword: 'type',
        params: { type: 'null' },
        message: 'must be null',
      },
      {
        instancePath: '/actionUrl',
        schemaPath: '#/properties/actionUrl/anyOf',
        keyword: 'anyOf',
        params: {},
        message: 'must match a schema in anyOf',
      },
    ]);
    expect(summary.details).toEqual([{ path: '/actionUrl', message: 'must be string or null' }]);
  });

  it('lists enum values and joins several failures in the sentence', () => {
    const summary = summarizeValidation('querystring', [
      {
        instancePath: '/newCycle',
        keyword: 'enum',
        params: { allowedValues: ['monthly', 'yearly'] },
        message: 'must be equal to one of the allowed values',
      },
      { instancePath: '/newSeats', keyword: 'minimum', params: { limit: 1 }, message: 'must be >= 1' },
    ]);
    expect(summary.details).toEqual([
      { path: 'querystring/newCycle', message: 'must be one of: monthly, yearly' },
      { path: 'querystring/newSeats', message: 'must be >= 1' },
    ]);
    expect(summary.message).toBe(
      'querystring/newCycle must be one of: monthly, yearly, querystring/newSeats must be >= 1',
    );
  });

  it('caps the sentence and says how many more failed', () => {
    const issues = Array.from({ length: 8 }, (_, i) => ({
      instancePath: `/items/${i}`,
      keyword: 'type',
      message: 'must be integer',
    }));
    const summary = summarizeValidation('body', issues);
    expect(summary.details).toHaveLength(8);
    expect(summary.message.endsWith('body/items/4 must be integer and 3 more')).toBe(true);
  });
});
