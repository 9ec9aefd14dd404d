import fc from 'fast-check';

// Inputs at the edges of what the contract can show and PostgreSQL can store, for the fuzz runs
// (docs/decisions.md#unstorable-text-is-refused, #single-line-names, #dates-are-storable, #idempotency-key-header).

/** Byte sequences that are not UTF-8: FF FE C3, a lone continuation byte, an overlong "/", an encoded surrogate, past U+10FFFF, a cut sequence. */
export const notUtf8Bytes: readonly Buffer[] = [
  Buffer.from([0xff, 0xfe, 0xc3]),
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
];

/** Characters no single-line name may hold: bidirectional embeddings, overrides and isolates, U+2028/U+2029, breaks. */
export const notOnOneLineCharacters = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2028',
  '\u2029',
  '\n',
  '\r',
  '\t',
  '\u0085',
] as const;

/** A name with one of those characters inside (or at an end): `Acme\u202eLtd`. */
export const notOnOneLineStrings: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', 'Acme', 'Wanjiru', 'مريم'),
    fc.constantFrom(...notOnOneLineCharacters),
    fc.constantFrom('', 'Ltd', 'gnp.exe'),
  )
  .filter(([before, , after]) => before !== '' || after !== '')
  .map(([before, character, after]) => `${before}${character}${after}`);

/**
 * Dates and date-times that PostgreSQL cannot be asked about once in UTC (year 0, year 10000, JavaScript's limits,
 * PostgreSQL's own, a leap second, days that do not exist) or that JavaScript cannot represent: a request naming one
 * must be refused.
 */
export const unstorableDates = [
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+00:01',
  '0001-01-01T00:00:00+14:00',
  '0000-12-31T23:59:59Z',
  '9999-12-31T23:59:59-12:00',
  '9999-12-31T23:59:59.999-00:01',
  '10000-01-01',
  '+275760-09-13',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '-004713-11-24T00:00:00Z',
  '294276-12-31T23:59:59Z',
  '2016-12-31T23:59:60Z',
  '2026-02-30',
  '2026-02-29T00:00:00Z',
  '2026-03-01T24:00:00Z',
] as const;

/** The first and last moments and days that can be stored: a request may name them. */
export const storableEdgeDates = [
  '0001-01-01T00:00:00Z',
  '0001-01-02',
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '2024-02-29T12:00:00+03:00',
] as const;

export const extremeDates: fc.Arbitrary<{ text: string; storable: boolean }> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...unstorableDates).map((text) => ({ text, storable: false })) },
  { weight: 1, arbitrary: fc.constantFrom(...storableEdgeDates).map((text) => ({ text, storable: true })) },
);

type IdempotencyKeyHeaders = { headers: Record<string, string>; differ: boolean };

/**
 * The idempotency key under either header name, or both: with one value (one key) or two (a 400 on an idempotent
 * route). `differ` says which.
 */
export const idempotencyKeyHeaderSets: fc.Arbitrary<IdempotencyKeyHeaders> = fc
  .tuple(fc.uuid(), fc.uuid(), fc.constantFrom('x-only', 'standard-only', 'both-equal', 'both-different'))
  .map(([key, other, form]): IdempotencyKeyHeaders => {
    switch (form) {
      case 'x-only':
        return { headers: { 'x-idempotency-key': key }, differ: false };
      case 'standard-only':
        return { headers: { 'idempotency-key': key }, differ: false };
      case 'both-equal':
        return { headers: { 'x-idempotency-key': key, 'idempotency-key': key }, differ: false };
      default:
        return { headers: { 'x-idempotency-key': key, 'idempotency-key': other }, differ: key !== other };
    }
  });
