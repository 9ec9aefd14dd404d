import fc from 'fast-check';
import type { FuzzRequestOptions } from './request-options.js';

// Request headers: who calls, the headers the service reads, a content type and junk headers.

/** Header values as a client can send them: visible latin-1 text (anything else is refused by Node itself). */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 }),
  fc.constantFrom('', ' ', 'null', '__proto__', '0', '-0', '1e308', 'NaN', 'x'.repeat(8_000), '\u00e9\u00ff'),
);

/** Mostly JSON, as clients send; then every other kind, or none. */
const contentTypes: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/xml',
      '*/*',
      '',
    ),
  },
);

const junkHeaders = fc.array(
  fc.tuple(
    fc.constantFrom(
      'x-forwarded-for',
      'x-request-id',
      'accept',
      'accept-encoding',
      'origin',
      'cookie',
      'x-http-method-override',
      'x-organization-id',
      'idempotency-key',
    ),
    headerText,
  ),
  { maxLength: 2 },
);

export function headerSets(options: FuzzRequestOptions, clean: boolean): fc.Arbitrary<Record<string, string>> {
  const contentType = clean ? fc.constant('application/json') : contentTypes;
  const junk = clean ? fc.constant([]) : junkHeaders;
  const who = (clean ? options.clean?.credentials : undefined) ?? options.credentials;
  const others = (clean ? options.clean?.headers : undefined) ?? options.headers ?? fc.constant({});
  return fc.tuple(who, others, contentType, junk).map(([credentials, named, type, extra]) => {
    const headers: Record<string, string> = { ...named };
    for (const [name, value] of extra) headers[name] = value;
    Object.assign(headers, credentials);
    if (type !== undefined) headers['content-type'] = type;
    return headers;
  });
}
