// The port through which payments use a payment provider: payments own it, the adapters in billing/providers
// (Paystack, Daraja, the sandbox) implement it, and the billing routes pass the configured ones in. Payments
// never import a provider.

import type { PaymentProvider, PaymentStatus } from '@platform/db';
import type { ReusableCard } from '../payment-methods/index.js';

export type { ReusableCard };

/**
 * What a provider says about a payment, in our terms: from a callback, a webhook, the answer to a charge, or a
 * status query. `pending` settles nothing (the event is only recorded).
 */
export interface ProviderOutcome {
  status: PaymentStatus;
  /** Unique per provider event: a second delivery with the same key is a duplicate and changes nothing. */
  eventKey: string;
  /** Where it came from: `paystack_webhook`, `daraja_callback`, `daraja_query`, `sandbox_checkout`, ... */
  source: string;
  /** The provider's message as received, stored with the event. */
  payload: unknown;
  /** What the provider says was paid, whole KES (success only): must match the payment. */
  paid?: { amount: number; currency: string };
  /** Why it did not succeed, in the provider's words. */
  reason?: string;
  reusableCard?: ReusableCard;
  /**
   * M-Pesa's receipt number of the payment (success only), already checked to be one: kept on the payment once and
   * shown on its receipt (docs/decisions.md#m-pesa-receipt-number).
   */
  mpesaReceiptNumber?: string;
}

export interface CheckoutRequest {
  reference: string;
  /** Whole KES. */
  amount: number;
  /** The paying user's email (the provider sends the receipt there). */
  email: string;
  /** Where the browser goes after the checkout. */
  returnUrl: string;
  metadata: Record<string, string>;
}

export interface SavedCardCharge {
  reference: string;
  amount: number;
  email: string;
  authorizationCode: string;
}

/**
 * Cards: a hosted checkout, charges to saved cards, and a status lookup by our reference. The provider's
 * transaction reference is ours (`providerReference` is always the payment's reference), so a payment can be
 * looked up even when the provider's answer to our request never came.
 */
export interface CardProvider {
  readonly name: 'paystack' | 'sandbox';
  startCheckout(request: CheckoutRequest): Promise<{ checkoutUrl: string; providerReference: string }>;
  /** Charges a saved card; the outcome may already be final. */
  chargeSavedCard(charge: SavedCardCharge): Promise<ProviderOutcome>;
  /**
   * The provider's view of a payment by our reference (card providers use it as their transaction
   * reference), or undefined when the provider has no transaction with that reference: it never happened.
   */
  lookUp(reference: string): Promise<ProviderOutcome | undefined>;
}

export interface MobileMoneyRequest {
  reference: string;
  /** At most 12 characters, shown in the prompt. */
  accountReference: string;
  amount: number;
  /** `254` + 9 digits. */
  phone: string;
  description: string;
}

/** The result of one M-Pesa prompt, as its provider's callback reports it. */
export interface MobileMoneyResult {
  /** The provider's reference of the prompt (Daraja's CheckoutRequestID). */
  providerReference: string;
  outcome: ProviderOutcome;
  /** The paying number and amount, when the result reports them (for support and alarms). */
  payer: { phone: string; amount: number } | undefined;
}

/**
 * How a provider's prompt results are read again from the events they were kept as: a result can arrive before
 * its payment knows the prompt's reference (it is kept without a payment, then applied once the reference is
 * stored), or for a prompt whose answer never came (it is then reported).
 */
export interface MobileMoneyResults {
  /** The event sources results are recorded from. */
  readonly sources: readonly string[];
  /** The start of the event key of every result about one prompt. */
  keyPrefixOf(providerReference: string): string;
  /** A kept message read as a result; undefined when it is not one. */
  read(payload: unknown, source: string): MobileMoneyResult | undefined;
}

/** M-Pesa Express: a PIN prompt on the phone, with the result sent to our callback, and a status query. */
export interface MobileMoneyProvider {
  readonly name: 'daraja' | 'sandbox';
  requestPayment(request: MobileMoneyRequest): Promise<{ providerReference: string }>;
  /** The outcome of a prompt by its provider reference; `pending` while it is still being processed. */
  queryPayment(providerReference: string): Promise<ProviderOutcome>;
  readonly results: MobileMoneyResults;
}

/** The configured provider of each channel. */
export interface PaymentProviders {
  card: CardProvider;
  mobileMoney: MobileMoneyProvider;
}

/** The configured card provider if it is the one named (a payment is only ever asked about at its own provider). */
export function cardProviderNamed(providers: PaymentProviders, name: PaymentProvider): CardProvider | undefined {
  return providers.card.name === name ? providers.card : undefined;
}

export function mobileMoneyProviderNamed(
  providers: PaymentProviders,
  name: PaymentProvider,
): MobileMoneyProvider | undefined {
  return providers.mobileMoney.name === name ? providers.mobileMoney : undefined;
}
