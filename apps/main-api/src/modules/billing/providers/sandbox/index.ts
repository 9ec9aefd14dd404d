// The sandbox provider, standing in for Paystack and Daraja where no credentials are configured: adapters of
// both of payments' provider ports, and the hosted card checkout page.

export { createSandboxCardProvider } from './card.js';
export { createSandboxMobileMoneyProvider } from './mobile-money.js';
export { sandboxCheckoutRoutes } from './routes.js';
