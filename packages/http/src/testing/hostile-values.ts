import fc from 'fast-check';

/** Strings that break naive parsing, storage or rendering. */
export const hostileStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '__proto__',
    'constructor',
    'prototype',
    'NaN',
    'Infinity',
    '-0',
    '1e308',
    '-1e308',
    '1e309',
    '0x10',
    '9007199254740993',
    'null',
    'true',
    '[]',
    '{}',
    "'; drop table users; --",
    '../../etc/passwd',
    '%2e%2e%2f',
    '%00',
    '\ud800',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '\ud83d\udc69\u200d\ud83d\udcbb',
    'Zalgo\u0300\u0301\u0302\u0303\u0304',
    '<script>alert(1)</script>',
    '\r\nX-Injected: 1',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'x'.repeat(length)),
);

/**
 * Text PostgreSQL cannot store (U+0000; UTF-16 surrogates without their pair, which JSON can carry as escapes),
 * alone or inside ordinary text: every field that reaches the database must refuse it with a 400.
 */
export const unstorableCharacters = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'] as const;
export const unstorableStrings: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...unstorableCharacters), fc.string({ maxLength: 8 }))
  .map(([before, character, after]) => `${before}${character}${after}`)
  // Ordinary text around it may complete a surrogate pair; keep only what is still unstorable.
  .filter((text) => text.includes('\u0000') || !text.isWellFormed());

/** Numbers at the edges of what JSON, JavaScript and PostgreSQL can hold. */
export const hostileNumbers: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    -(2 ** 31) - 1,
    5e-324,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** An object nested `depth` levels deep: `{a: {a: ... {}}}` (or arrays, when `asArray`). */
export function deeplyNested(depth: number, asArray = false): unknown {
  let value: unknown = asArray ? [] : {};
  for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** Keys that poison prototypes when an object is merged naively. */
export const pollutingKeys = ['__proto__', 'constructor', 'prototype'] as const;

/** `{__proto__: {...}}` etc. as JSON text would produce them (own properties, not prototypes). */
export const pollutingObjects: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.constantFrom(...pollutingKeys),
    fc.constantFrom<unknown>({ polluted: true, isAdmin: true }, { prototype: { polluted: true } }, 'x', null),
  )
  .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value)}}`) as Record<string, unknown>);

/** Any JSON value of the wrong shape for a field: other types, edge numbers and strings, deep nesting. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  hostileNumbers,
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': '' }),
  pollutingObjects,
  fc.integer({ min: 50, max: 2_000 }).map((depth) => deeplyNested(depth)),
  fc.integer({ min: 50, max: 2_000 }).map((depth) => deeplyNested(depth, true)),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Object keys worth sending: polluting keys, odd names and ordinary ones. */
export const hostileKeys: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...pollutingKeys, '', 'id', 'organizationId', 'userId', 'success'),
  fc.string({ maxLength: 12 }),
);

/** Raw bodies that are not the JSON they claim to be. */
export const malformedJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,2',
    '{"a":1,}',
    "{'a':1}",
    'undefined',
    'NaN',
    '{"a":NaN}',
    '\ufeff{}',
    '{"__proto__":',
    '"unterminated',
    '{} {}',
  ),
  fc.string({ maxLength: 40 }).map((text) => `{${text}`),
);
