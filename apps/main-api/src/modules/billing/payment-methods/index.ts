// What the rest of billing uses of saved payment methods: the routes and their schemas, saving a method in the
// transaction of the payment that paid with it, and finding one to charge.
export { findActivePaymentMethod, saveCard, saveMobileMoneyNumber } from './repository.js';
export type { ReusableCard } from './reusable-card.js';
export { paymentMethodRoutes } from './routes.js';
export { type PaymentMethodView, paymentMethodSharedSchemas } from './schemas.js';
export { listPaymentMethods, PAYMENT_METHOD_NOT_FOUND, removePaymentMethod } from './service.js';
