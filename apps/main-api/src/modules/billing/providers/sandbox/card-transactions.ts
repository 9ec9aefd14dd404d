import { randomInt } from 'node:crypto';
import { type PaystackTransaction, toPaystackSubunits } from '../paystack/index.js';

/** The one card the sandbox "issues": the same signature every time, so it is saved once per organization. */
const SANDBOX_CARD = {
  brand: 'visa',
  last4: '4081',
  expMonth: '12',
  expYear: '2030',
  bank: 'Sandbox Bank',
  signature: 'SIG_sandbox_visa_4081',
} as const;

/** A Paystack-shaped transaction object for a sandbox card payment, so it takes Paystack's code path. */
export function sandboxCardTransaction(input: {
  reference: string;
  amount: number;
  email: string;
  status: 'success' | 'failed' | 'abandoned';
  gatewayResponse: string;
  authorizationCode?: string;
  at: Date;
}): PaystackTransaction & Record<string, unknown> {
  return {
    id: randomInt(1, 2 ** 47),
    domain: 'test',
    reference: input.reference,
    status: input.status,
    amount: toPaystackSubunits(input.amount),
    currency: 'KES',
    channel: 'card',
    gateway_response: input.gatewayResponse,
    paid_at: input.status === 'success' ? input.at.toISOString() : null,
    created_at: input.at.toISOString(),
    customer: { email: input.email },
    authorization:
      input.status === 'success'
        ? {
            authorization_code: input.authorizationCode ?? `AUTH_sandbox_${randomInt(1, 2 ** 47).toString(36)}`,
            bin: '408408',
            last4: SANDBOX_CARD.last4,
            exp_month: SANDBOX_CARD.expMonth,
            exp_year: SANDBOX_CARD.expYear,
            channel: 'card',
            card_type: 'visa',
            bank: SANDBOX_CARD.bank,
            country_code: 'KE',
            brand: SANDBOX_CARD.brand,
            reusable: true,
            signature: SANDBOX_CARD.signature,
          }
        : null,
  };
}
