import fc from 'fast-check';
import { hostileJson, hostileKeys, malformedJsonText, pollutingObjects } from './hostile-values.js';
import { type SchemaLookup, valuesOf } from './schema-values.js';

// Request bodies: JSON near a route's schema, broken in one field or polluted, and a body with unstorable text in
// one of its strings.

/** Body text: mostly JSON near the schema, then anything. */
export function bodies(schema: unknown, lookup: SchemaLookup): fc.Arbitrary<string | undefined> {
  const valid = valuesOf(schema, lookup);
  const oneFieldBroken = fc
    .tuple(valid, hostileKeys, hostileJson)
    .map(([value, key, broken]) => (isObject(value) ? withOwnKey(value, key, broken) : broken));
  const polluted = fc
    .tuple(valid, pollutingObjects)
    .map(([value, pollution]) => (isObject(value) ? { ...value, ...pollution } : pollution));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(stringify) },
    { weight: 3, arbitrary: oneFieldBroken.map(stringify) },
    { weight: 1, arbitrary: polluted.map(stringify) },
    { weight: 2, arbitrary: hostileJson.map(stringify) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'null', '""') },
    { weight: 1, arbitrary: malformedJsonText },
  );
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets `key` as an own property even when it is `__proto__`, as JSON.parse would. */
function withOwnKey(value: Record<string, unknown>, key: string, field: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
  return copy;
}

export function stringify(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** The JSON pointers of the string values in `value`, at any depth (objects and arrays). */
function stringLeaves(value: unknown, pointer: string[] = []): string[][] {
  if (typeof value === 'string') return [pointer];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...pointer, String(index)]));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...pointer, key]));
  return [];
}

/** `value` with the string at `pointer` replaced by `text`; an object without strings gains a field instead. */
export function withUnstorableText(value: unknown, text: string, choice: number): unknown {
  const leaves = stringLeaves(value);
  if (leaves.length === 0) return isObject(value) ? withOwnKey(value, 'note', text) : { note: text };
  const pointer = leaves[choice % leaves.length] ?? [];
  const copy: unknown = structuredClone(value);
  if (pointer.length === 0) return text;
  let parent = copy as Record<string, unknown>;
  for (const key of pointer.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[pointer.at(-1) as string] = text;
  return copy;
}
