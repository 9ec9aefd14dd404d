import type { PaymentsConfig } from '../config.js';
import type { PaymentLog, PaymentProviders } from '../payments/index.js';
import { createDarajaMobileMoneyProvider, MPESA_CALLBACK_PATH } from './daraja/index.js';
import type { ProviderTimeout } from './http.js';
import { createPaystackCardProvider } from './paystack/index.js';
import { createSandboxCardProvider, createSandboxMobileMoneyProvider } from './sandbox/index.js';

/** The providers payments are given, and what the app does with them when it closes. */
export interface ConfiguredProviders extends PaymentProviders {
  /** Stops anything the providers still have scheduled and waits for what they are doing (sandbox callbacks). */
  close(): Promise<void>;
}

export interface PaymentProvidersOptions {
  publicUrl: string;
  now: () => Date;
  log: PaymentLog;
  /** Starts each provider request's time limit of PROVIDER_TIMEOUT_MS (AbortSignal.timeout by default). */
  providerTimeout?: ProviderTimeout;
  /** Where the sandbox delivers its Daraja-shaped callbacks: the handler of the real callback route. */
  deliverSandboxStkCallback: (body: unknown) => Promise<unknown>;
}

/** The providers configuration names: Paystack and Daraja when their credentials are set, else the sandbox. */
export function createPaymentProviders(config: PaymentsConfig, options: PaymentProvidersOptions): ConfiguredProviders {
  const timeoutMs = config.providerTimeoutMs;
  const timeout = options.providerTimeout;
  const card =
    config.card.kind === 'paystack'
      ? createPaystackCardProvider({
          secretKey: config.card.secretKey,
          baseUrl: config.card.baseUrl,
          timeoutMs,
          timeout,
        })
      : createSandboxCardProvider({ publicUrl: options.publicUrl, now: options.now });
  if (config.mobileMoney.kind === 'daraja') {
    const mobileMoney = createDarajaMobileMoneyProvider({
      config: config.mobileMoney,
      callbackUrl: `${options.publicUrl}${MPESA_CALLBACK_PATH}/${config.mobileMoney.callbackToken}`,
      timeoutMs,
      timeout,
      now: options.now,
    });
    return { card, mobileMoney, close: async () => undefined };
  }
  const mobileMoney = createSandboxMobileMoneyProvider({
    delayMs: config.mobileMoney.stkDelayMs,
    deliverCallback: options.deliverSandboxStkCallback,
    now: options.now,
    log: options.log,
  });
  return { card, mobileMoney, close: () => mobileMoney.close() };
}

/** Where Paystack's hosted checkout is (its `authorization_url`s). */
const PAYSTACK_CHECKOUT_ORIGIN = 'https://checkout.paystack.com';

/**
 * The origin of the card checkout the configured provider sends payers to: a page whose form is answered with a
 * redirect there must allow it in its CSP `form-action` (docs/decisions.md#dashboard-pages).
 */
export function cardCheckoutOrigin(config: PaymentsConfig, publicUrl: string): string {
  return config.card.kind === 'paystack' ? PAYSTACK_CHECKOUT_ORIGIN : new URL(publicUrl).origin;
}
