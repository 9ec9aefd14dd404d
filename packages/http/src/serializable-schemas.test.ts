import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { nullable, stringEnum } from './serializable-schemas.js';

describe('nullable and stringEnum', () => {
  it('are type lists and enums in JSON Schema, with the inner schema’s keywords', () => {
    const schema = Type.Object({
      at: nullable(Type.String({ format: 'date-time' }), { description: 'When.' }),
      status: stringEnum(['active', 'ended'] as const),
      code: nullable(stringEnum(['a', 'b'] as const)),
      kinds: nullable(Type.Array(stringEnum(['x'] as const))),
    });
    expect(JSON.parse(JSON.stringify(schema.properties))).toEqual({
      at: { type: ['string', 'null'], format: 'date-time', description: 'When.' },
      status: { type: 'string', enum: ['active', 'ended'] },
      code: { type: ['string', 'null'], enum: ['a', 'b', null] },
      kinds: { type: ['array', 'null'], items: { type: 'string', enum: ['x'] } },
    });
  });

  it('check as the unions did', () => {
    const schema = Type.Object({ at: nullable(Type.Integer()), status: stringEnum(['active', 'ended'] as const) });
    expect(Value.Check(schema, { at: null, status: 'active' })).toBe(true);
    expect(Value.Check(schema, { at: 3, status: 'ended' })).toBe(true);
    expect(Value.Check(schema, { at: 'soon', status: 'active' })).toBe(false);
    expect(Value.Check(schema, { at: null, status: 'paused' })).toBe(false);
  });

  it('refuses a schema without one type', () => {
    expect(() => nullable(Type.Union([Type.String(), Type.Integer()]))).toThrow('one type');
  });
});
