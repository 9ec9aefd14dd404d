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
    expect(summary.details).toEqual([{ path: '/method', message: 'is required' }]);
    expect(summary.message).toBe('method is required');
  });

  it('folds a union of literals into one message listing the values', () => {
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
    expect(summary.details).toEqual([{ path: '/method', message: 'must be card or mobile_money' }]);
    expect(summary.message).toBe('method must be card or mobile_money');
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
    expect(summary.details).toEqual([{ path: '/actionUrl', message: 'must be text or null' }]);
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
      { path: 'querystring/newCycle', message: 'must be monthly or yearly' },
      { path: 'querystring/newSeats', message: 'must be at least 1' },
    ]);
    expect(summary.message).toBe('newCycle must be monthly or yearly; newSeats must be at least 1');
  });

  it('caps the sentence and says how many more failed', () => {
    const issues = Array.from({ length: 8 }, (_, i) => ({
      instancePath: `/items/${i}`,
      keyword: 'type',
      params: { type: 'integer' },
      message: 'must be integer',
    }));
    const summary = summarizeValidation('body', issues);
    expect(summary.details).toHaveLength(8);
    expect(summary.message.endsWith('items[4] must be a whole number; and 3 more')).toBe(true);
  });

  it('says a required field with the values it takes: newCycle is required: monthly or yearly', () => {
    const summary = summarizeValidation('querystring', [
      {
        instancePath: '',
        keyword: 'required',
        params: { missingProperty: 'newCycle' },
        message: "must have required property 'newCycle'",
        parentSchema: {
          type: 'object',
          required: ['newCycle'],
          properties: { newCycle: { anyOf: [{ const: 'monthly' }, { const: 'yearly' }] } },
        },
      },
    ]);
    expect(summary).toEqual({
      message: 'newCycle is required: monthly or yearly',
      details: [{ path: 'querystring/newCycle', message: 'is required: monthly or yearly' }],
    });
  });

  it('says a format in words: id must be a UUID', () => {
    const summary = summarizeValidation('params', [
      {
        instancePath: '/id',
        keyword: 'format',
        params: { format: 'uuid' },
        message: 'must match format "uuid"',
        parentSchema: { type: 'string', format: 'uuid' },
      },
    ]);
    expect(summary).toEqual({
      message: 'id must be a UUID',
      details: [{ path: 'params/id', message: 'must be a UUID' }],
    });
  });

  it("says a pattern by the schema's x-allowed annotation, and never quotes it", () => {
    const pattern = '^[A-Za-z][0-9]{9}[A-Za-z]$';
    const issue = {
      instancePath: '/kraPin',
      keyword: 'pattern',
      params: { pattern },
      message: `must match pattern "${pattern}"`,
    };
    const annotated = summarizeValidation('body', [
      {
        ...issue,
        parentSchema: { type: 'string', pattern, 'x-allowed': 'a KRA PIN: a letter, nine digits and a letter' },
      },
    ]);
    expect(annotated.message).toBe('kraPin must be a KRA PIN: a letter, nine digits and a letter');
    const bare = summarizeValidation('body', [{ ...issue, parentSchema: { type: 'string', pattern } }]);
    expect(bare.message).toBe('kraPin is not in the form this field takes');
    expect(JSON.stringify([annotated, bare])).not.toContain(pattern);
  });

  it.each([
    ['minLength', { limit: 1 }, { type: 'string', minLength: 1 }, 'must not be empty'],
    ['maxLength', { limit: 100 }, { type: 'string', minLength: 1, maxLength: 100 }, 'must be 1-100 characters long'],
    ['maxLength', { limit: 64 }, { type: 'string', maxLength: 64 }, 'must be at most 64 characters long'],
    ['maximum', { limit: 100 }, { type: 'integer', minimum: 1, maximum: 100 }, 'must be a whole number from 1 to 100'],
    ['type', { type: 'integer' }, { type: 'integer', minimum: 1 }, 'must be a whole number of at least 1'],
    ['type', { type: 'boolean' }, { type: 'boolean' }, 'must be true or false'],
    ['type', { type: 'object' }, { type: 'object' }, 'must be an object'],
    ['maxItems', { limit: 10 }, { type: 'array', maxItems: 10 }, 'must list at most 10 items'],
    ['uniqueItems', { i: 1, j: 0 }, { type: 'array', uniqueItems: true }, 'must not list the same item twice'],
    ['enum', { allowedValues: ['core', 'growth', 'scale'] }, {}, 'must be core, growth or scale'],
    [
      'format',
      { format: 'date-time' },
      { type: 'string', format: 'date-time' },
      expect.stringContaining('9999-12-31T23:59:59Z'),
    ],
  ])('says %s with what the schema allows', (keyword, params, parentSchema, message) => {
    const summary = summarizeValidation('body', [
      { instancePath: '/field', keyword, params, message: 'ajv', parentSchema },
    ]);
    expect(summary.details).toEqual([{ path: '/field', message }]);
  });

  it('says an unknown field is not one the request takes', () => {
    const summary = summarizeValidation('querystring', [
      {
        instancePath: '',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'sort' },
        message: 'must NOT have additional properties',
      },
    ]);
    expect(summary.message).toBe('sort is not a field this request takes');
  });

  it("reports a nullable field's own failure rather than the union's", () => {
    const summary = summarizeValidation('body', [
      {
        instancePath: '/appName',
        schemaPath: '#/properties/appName/anyOf/0/format',
        keyword: 'format',
        params: { format: 'single-line-name' },
        message: 'must match format "single-line-name"',
        parentSchema: { type: 'string', format: 'single-line-name' },
      },
      {
        instancePath: '/appName',
        schemaPath: '#/properties/appName/anyOf/1/type',
        keyword: 'type',
        params: { type: 'null' },
        message: 'must be null',
        parentSchema: { type: 'null' },
      },
      {
        instancePath: '/appName',
        schemaPath: '#/properties/appName/anyOf',
        keyword: 'anyOf',
        params: {},
        message: 'must match a schema in anyOf',
        parentSchema: { anyOf: [{ type: 'string', format: 'single-line-name' }, { type: 'null' }] },
      },
    ]);
    expect(summary.details).toEqual([
      { path: '/appName', message: expect.stringMatching(/^must be one line of text/) },
    ]);
  });

  it('names nested body fields, list items and headers as the API writes them', () => {
    const summary = summarizeValidation('body', [
      { instancePath: '/metadata/plan', keyword: 'const', params: { allowedValue: 'core' } },
      { instancePath: '/origins/0', keyword: 'type', params: { type: 'string' } },
      { instancePath: '', keyword: 'type', params: { type: 'object' } },
    ]);
    expect(summary.message).toBe(
      'metadata.plan must be core; origins[0] must be text; the request body must be an object',
    );
    expect(
      summarizeValidation('headers', [{ instancePath: '/x-count', keyword: 'type', params: { type: 'integer' } }])
        .message,
    ).toBe('the x-count header must be a whole number');
  });
});
