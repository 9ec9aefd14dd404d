import {
  Kind,
  type SchemaOptions,
  type Static,
  type TSchema,
  type TUnsafe,
  Type,
  TypeRegistry,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

// Answers are written by fast-json-stringify, which serializes a union (`anyOf`) by validating the value against each
// branch with ajv, on every field of every item of every answer, where a type list (`type: ['string', 'null']`) or an
// `enum` is a `typeof` check. The schemas below mean what the unions meant, in those forms; TypeBox's own checks
// (`Value.Check`) know them by their kinds (docs/decisions.md#nullable-fields-and-enums-as-type-lists).

const NULLABLE_KIND = 'PlatformNullable';
const STRING_ENUM_KIND = 'PlatformStringEnum';
const innerSchema = Symbol.for('@platform/http.nullable.inner');

TypeRegistry.Set<{ [innerSchema]: TSchema }>(
  NULLABLE_KIND,
  (schema, value) => value === null || Value.Check(schema[innerSchema], value),
);
TypeRegistry.Set<{ enum: readonly string[] }>(
  STRING_ENUM_KIND,
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
);

/** One of `values`, as `{ type: 'string', enum }`: OpenAPI lists them, and an answer writes it as a string. */
export function stringEnum<T extends string>(values: readonly T[], options: SchemaOptions = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ ...options, type: 'string', enum: [...values], [Kind]: STRING_ENUM_KIND });
}

/**
 * `schema` or null, as a type list: `{ type: [<schema's type>, 'null'], ... }` with the schema's other keywords (an
 * `enum` also lists null). `schema` has one `type` (a string, integer, object or array schema, or a `stringEnum`); a
 * `$ref` or a union has none, and stays a union where it is needed.
 */
export function nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const { [Kind]: _kind, ...keywords } = schema as TSchema & Record<string, unknown>;
  const type = keywords['type'];
  if (typeof type !== 'string') throw new Error('nullable() takes a schema of one type');
  const enumValues = keywords['enum'];
  return Type.Unsafe<Static<T> | null>({
    ...keywords,
    ...options,
    type: [type, 'null'],
    ...(Array.isArray(enumValues) ? { enum: [...enumValues, null] } : {}),
    [Kind]: NULLABLE_KIND,
    [innerSchema]: schema,
  });
}
