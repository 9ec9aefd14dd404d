// The payment providers: adapters of payments' provider port (Paystack, Daraja, the sandbox), chosen from the
// configuration, and their inbound routes, which verify what a provider sends and hand it to payments.

export { mpesaCallbackRoutes, processStkCallback } from './daraja/index.js';
export { type ConfiguredProviders, cardCheckoutOrigin, createPaymentProviders } from './from-config.js';
export type { ProviderTimeout } from './http.js';
export { paystackWebhookRoutes } from './paystack/index.js';
export { sandboxCheckoutRoutes } from './sandbox/index.js';
