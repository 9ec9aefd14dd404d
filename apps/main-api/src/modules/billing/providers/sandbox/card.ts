import type { CardProvider } from '../../payments/index.js';
import { outcomeOfPaystackTransaction } from '../paystack/index.js';
import { sandboxCardTransaction } from './card-transactions.js';

export const SANDBOX_CHECKOUT_PATH = '/v1/billing/sandbox/checkout';

/**
 * Cards without Paystack: the checkout is this service's own sandbox page (Pay / Decline), whose result
 * goes through Paystack's event code; saved sandbox cards are always approved.
 */
export function createSandboxCardProvider(options: { publicUrl: string; now: () => Date }): CardProvider {
  return {
    name: 'sandbox',

    async startCheckout(request) {
      return {
        checkoutUrl: `${options.publicUrl}${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(request.reference)}`,
        providerReference: request.reference,
      };
    },

    async chargeSavedCard(charge) {
      const transaction = sandboxCardTransaction({
        reference: charge.reference,
        amount: charge.amount,
        email: charge.email,
        status: 'success',
        gatewayResponse: 'Approved',
        authorizationCode: charge.authorizationCode,
        at: options.now(),
      });
      const answer = { status: true, message: 'Charge attempted', data: transaction };
      return outcomeOfPaystackTransaction(transaction, 'charge_authorization', 'sandbox_charge', answer);
    },

    // The sandbox makes every transaction it is asked for, and its checkout page reports the result itself:
    // a checkout still open has no result yet, and the payment expires when its time is up.
    async lookUp(reference) {
      return {
        status: 'pending',
        eventKey: `sandbox:lookup:${reference}:open`,
        source: 'sandbox_lookup',
        payload: { reference, status: 'open' },
      };
    },
  };
}
