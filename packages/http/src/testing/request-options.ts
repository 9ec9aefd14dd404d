import type fc from 'fast-check';
import type { SchemaLookup } from './schema-values.js';

export interface FuzzRequestOptions {
  /** Resolves `$ref`s in route schemas, e.g. `(id) => app.getSchema(id)`. */
  lookup?: SchemaLookup;
  /** Header sets standing for who calls: real credentials, broken ones, none (`{}`). */
  credentials: fc.Arbitrary<Record<string, string>>;
  /** Headers the service reads besides credentials (X-Organization-Id, Idempotency-Key...), mostly good values. */
  headers?: fc.Arbitrary<Record<string, string>>;
  /**
   * Credentials and headers of the clean requests (a third of them), when they should be good ones only, so
   * those requests reach the handlers; by default the same as the others.
   */
  clean?: { credentials?: fc.Arbitrary<Record<string, string>>; headers?: fc.Arbitrary<Record<string, string>> };
  /** Bodies that make sense together, by route (`POST /v1/things`), beyond what its schema can say. */
  bodyExamples?: Record<string, fc.Arbitrary<unknown>>;
  /**
   * Known good values per path parameter name (ids of seeded rows), mixed with generated ones; `*` for what a
   * trailing wildcard stands for (the path of a stored file).
   */
  pathValues?: Record<string, fc.Arbitrary<string>>;
  /**
   * Known good values of the path parameters of the routes under a URL prefix (`/v1/organizations/:id`), used
   * there instead of `pathValues`: for a parameter name several kinds of objects share (`id`), so that those
   * routes meet their own kind most of the time. The longest matching prefix wins.
   */
  pathValuesUnder?: Record<string, Record<string, fc.Arbitrary<string>>>;
  /** Query strings that make sense, by route (a reference that exists), beyond what its schema can say. */
  queryExamples?: Record<string, fc.Arbitrary<Record<string, string>>>;
}
