import fc from 'fast-check';
import { API_KEY_HEADER } from '../../src/plugins/api-key-authentication.js';

/** The organization's live or test key mostly; otherwise none, another's, a revoked, made-up or mangled one. */
export function apiKeyCredentials(keys: {
  live: string;
  test: string;
  otherOrganization: string;
  revoked: string;
}): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(keys.live, keys.test).map((key) => ({ [API_KEY_HEADER]: key })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { [API_KEY_HEADER]: keys.otherOrganization },
        { [API_KEY_HEADER]: keys.revoked },
        { [API_KEY_HEADER]: '' },
        { [API_KEY_HEADER]: `sk_live_${'A'.repeat(43)}` },
        { [API_KEY_HEADER]: keys.live.slice(0, -1) },
        { [API_KEY_HEADER]: ` ${keys.live}` },
        { authorization: `Bearer ${keys.live}` },
      ),
    },
  );
}

/** No idempotency key, a fresh or a reused one under either name, or both names agreeing or disagreeing. */
export function idempotencyHeaders(): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    fc.constant({}),
    fc.uuid().map((key) => ({ 'x-idempotency-key': key })),
    fc.constantFrom('fixed-key-1', 'fixed-key-2').map((key) => ({ 'x-idempotency-key': key })),
    fc.uuid().map((key) => ({ 'idempotency-key': key })),
    fc.constantFrom('fixed-key-1', 'fixed-key-2').map((key) => ({ 'idempotency-key': key, 'x-idempotency-key': key })),
    fc.tuple(fc.uuid(), fc.uuid()).map(([one, other]) => ({ 'x-idempotency-key': one, 'idempotency-key': other })),
  );
}
