import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * A `$ref` to a shared schema (registered with app.addSchema) that keeps the schema's static type, so
 * handlers stay type-checked while OpenAPI shows the schema once under its name.
 */
export function ref<T extends TSchema>(schema: T) {
  if (schema.$id === undefined) throw new Error('ref() needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}
