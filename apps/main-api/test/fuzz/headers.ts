import { type FuzzRequest, hostileJson } from '@platform/http/testing';
import fc from 'fast-check';
import { PAYSTACK_WEBHOOK_PATH } from '../../src/modules/billing/providers/paystack/routes.js';
import { paystackSignature } from '../../src/modules/billing/providers/paystack/signature.js';
import { FAKE_PAYSTACK_SECRET } from '../fake-paystack.js';

/** The seeded member's token mostly; otherwise nobody, another user, or a malformed, expired or forged token. */
export function bearerCredentials(tokens: {
  member: string;
  outsider: string;
  expired: string;
  unknownUser: string;
}): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ authorization: `Bearer ${tokens.member}` }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { authorization: `Bearer ${tokens.outsider}` },
        { authorization: `Bearer ${tokens.expired}` },
        { authorization: `Bearer ${tokens.unknownUser}` },
        { authorization: tokens.member },
        { authorization: `bearer ${tokens.member}` },
        { authorization: `Bearer ${tokens.member} extra` },
        { authorization: `Bearer ${tokens.member.slice(0, -2)}xx` },
        { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyX2Z1enpfbWVtYmVyIn0.' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
      ),
    },
  );
}

/** The member's organization mostly; otherwise another one, a made-up one, or not an id at all. */
export function organizationHeaders(
  organizationId: string,
  otherOrganizationId: string,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(organizationId) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            organizationId.toUpperCase(),
            otherOrganizationId,
            '00000000-0000-4000-8000-000000000000',
            'not-a-uuid',
            '',
          ),
        },
      ),
      idempotencyHeaders(),
      fc.option(fc.stringMatching(/^[0-9a-f]{128}$/), { nil: undefined }),
    )
    .map(([organization, idempotency, signature]) => ({
      'x-organization-id': organization,
      ...idempotency,
      ...(signature === undefined ? {} : { 'x-paystack-signature': signature }),
    }));
}

/** The member's organization and, half the time, a fresh idempotency key: headers a request can succeed with. */
export function goodOrganizationHeaders(organizationId: string): fc.Arbitrary<Record<string, string>> {
  return fc
    .option(fc.uuid(), { nil: undefined })
    .map((key) => ({ 'x-organization-id': organizationId, ...(key === undefined ? {} : { 'idempotency-key': key }) }));
}

/** At most one idempotency key usually, sometimes both headers (which must then agree). */
export function idempotencyHeaders(): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    fc.constant({}),
    fc.uuid().map((key) => ({ 'idempotency-key': key })),
    fc.constantFrom('fixed-key-1', 'fixed-key-2').map((key) => ({ 'x-idempotency-key': key })),
    fc.constantFrom('fixed-key-1', 'fixed-key-2').map((key) => ({ 'idempotency-key': key, 'x-idempotency-key': key })),
    fc.tuple(fc.uuid(), fc.uuid()).map(([one, other]) => ({ 'idempotency-key': one, 'x-idempotency-key': other })),
  );
}

/** Correctly signed Paystack events with odd contents: authentic, so they may change rows, but never fail. */
export function signedPaystackEvents(): fc.Arbitrary<FuzzRequest> {
  const event = fc.record({
    event: fc.constantFrom('charge.success', 'charge.failed', 'refund.processed', 'transfer.success'),
    data: fc.oneof(
      hostileJson,
      fc.record(
        {
          reference: fc.oneof(fc.string(), hostileJson),
          amount: fc.oneof(fc.integer(), hostileJson),
          status: fc.string(),
        },
        { requiredKeys: [] },
      ),
    ),
  });
  return fc
    .oneof(
      event.map((value) => JSON.stringify(value)),
      hostileJson.map((value) => JSON.stringify(value) ?? ''),
    )
    .map((payload) => ({
      route: `POST ${PAYSTACK_WEBHOOK_PATH} (signed)`,
      method: 'POST',
      url: PAYSTACK_WEBHOOK_PATH,
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': paystackSignature(Buffer.from(payload), FAKE_PAYSTACK_SECRET),
      },
      payload,
    }));
}
