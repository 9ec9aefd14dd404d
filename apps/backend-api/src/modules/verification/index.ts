// What the rest of backend-api uses of the verification module: the app its routes and settings, the hosted page
// (./hosted-page, which depends on this module and never the other way) the sessions and their lifecycle.
export { type LifecycleOptions, moveSession } from './lifecycle.js';
export { verificationRoutes } from './routes.js';
export { findSessionById } from './service.js';
export { verificationSettingsOf } from './settings.js';
