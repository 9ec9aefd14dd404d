import type { PaymentProvider } from '@platform/db';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentsConfig } from '../config.js';
import { MPESA_CALLBACK_PATH } from './daraja/callback-routes.js';
import { createDarajaMobileMoneyProvider } from './daraja/client.js';
import type { ProviderTimeout } from './http.js';
import { createPaystackCardProvider } from './paystack/client.js';
import type { CardProvider, MobileMoneyProvider } from './ports.js';
import { createSandboxCardProvider } from './sandbox/card.js';
import { createSandboxMobileMoneyProvider } from './sandbox/mobile-money.js';

export interface PaymentProviders {
  card: CardProvider;
  mobileMoney: MobileMoneyProvider;
  /** Stops anything the providers still have scheduled (sandbox callbacks). */
  close(): void;
}

export interface PaymentProvidersOptions {
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Starts each provider request's time limit of PROVIDER_TIMEOUT_MS (AbortSignal.timeout by default). */
  providerTimeout?: ProviderTimeout;
  /** Where the sandbox delivers its Daraja-shaped callbacks: the handler of the real callback route. */
  deliverSandboxStkCallback: (body: unknown) => Promise<unknown>;
}

/** The providers configuration names: Paystack and Daraja when their credentials are set, else the sandbox. */
export function createPaymentProviders(config: PaymentsConfig, options: PaymentProvidersOptions): PaymentProviders {
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
    return { card, mobileMoney, close: () => undefined };
  }
  const mobileMoney = createSandboxMobileMoneyProvider({
    delayMs: config.mobileMoney.stkDelayMs,
    deliverCallback: options.deliverSandboxStkCallback,
    now: options.now,
    log: options.log,
  });
  return { card, mobileMoney, close: () => mobileMoney.close() };
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
